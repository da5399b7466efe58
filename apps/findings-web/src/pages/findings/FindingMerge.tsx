import { ErrorAlert } from '@platform/web-ui';
import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { Schemas } from '../../api/client';
import { SeverityBadge, StatusBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { useUnmerge } from './api/finding-merge';
import { useCanWrite } from './finding-access';

type FindingDetail = Schemas['FindingDetailDto'];

/** On a merged finding: it has left the lists; where it went, and the way back. */
export function MergedBanner({ finding }: { finding: FindingDetail }) {
  const { t, locale } = useI18n();
  const canWrite = useCanWrite(finding);
  const unmerge = useUnmerge();
  if (!finding.merged_into_id) return null;
  return (
    <Alert
      color="indigo.9"
      variant="outline"
      data-testid="merged-banner"
      title={t('merge.bannerTitle')}
    >
      <Stack gap={6}>
        <Text size="sm">
          {t('merge.banner', {
            at: finding.merged_at ? formatDate(finding.merged_at, locale) : '',
          })}{' '}
          <Anchor
            component={Link}
            to={`/findings/${finding.merged_into_id}`}
            c="indigo.9"
            underline="always"
            data-testid="merged-survivor-link"
          >
            {t('merge.openSurvivor')}
          </Anchor>
        </Text>
        {canWrite && (
          <Group>
            <Button
              size="xs"
              variant="default"
              onClick={() => unmerge.mutate(finding.id)}
              loading={unmerge.isPending}
              data-testid="unmerge-self"
            >
              {t('merge.unmerge')}
            </Button>
          </Group>
        )}
        <ErrorAlert error={unmerge.error} />
      </Stack>
    </Alert>
  );
}

/** On a survivor: the findings merged into it, each with its own unmerge, and unmerge all. */
export function MergedMembers({ finding }: { finding: FindingDetail }) {
  const { t, locale } = useI18n();
  const canWrite = useCanWrite(finding);
  const unmerge = useUnmerge();
  const members = finding.merged_members ?? [];
  if (members.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="merged-members">
      <Group justify="space-between">
        <Title order={2} size="h5">
          {t('merge.members', { n: members.length })}
        </Title>
        {canWrite && (
          <Button
            size="xs"
            variant="default"
            onClick={() => unmerge.mutate(finding.id)}
            loading={unmerge.isPending && unmerge.variables === finding.id}
            data-testid="unmerge-all"
          >
            {t('merge.unmergeAll')}
          </Button>
        )}
      </Group>
      <Table withTableBorder fz="sm">
        <Table.Tbody>
          {members.map((m) => (
            <Table.Tr key={m.id} data-testid="merged-member">
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <SeverityBadge severity={m.severity as FindingDetail['severity']} />
                  <StatusBadge status={m.status as FindingDetail['status']} />
                  <Anchor component={Link} to={`/findings/${m.id}`} size="sm" underline="always">
                    {m.title}
                  </Anchor>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="gray.8">
                  {formatDate(m.merged_at, locale)}
                </Text>
              </Table.Td>
              {canWrite && (
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() => unmerge.mutate(m.id)}
                    loading={unmerge.isPending && unmerge.variables === m.id}
                    aria-label={t('merge.unmergeOne', { title: m.title })}
                    data-testid="unmerge-member"
                  >
                    {t('merge.unmerge')}
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ErrorAlert error={unmerge.error} />
    </Stack>
  );
}

import { ErrorAlert } from '@platform/web-ui';
import { Anchor, Button, Group, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SeverityBadge, StatusBadge } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { BulkStatusFields } from '../findings/BulkStatusFields';
import { useGroupAxes, useGroupMembers, useGroupStatus, type GroupAxis } from './rollup-api';

/**
 * The finding's groups (same package, host, CVE or rule in its project): the axes with counts;
 * an axis opens its members (paged) and a state change for the whole group.
 */
export function FindingGroupPanel({ findingId }: { findingId: string }) {
  const { t } = useI18n();
  const axes = useGroupAxes(findingId);
  const [open, setOpen] = useState<GroupAxis>();
  const [done, setDone] = useState<string>();
  const members = useGroupMembers(findingId, open);
  const change = useGroupStatus(findingId, (r) =>
    setDone(t('findings.bulkDone', { changed: r.changed, matched: r.matched })),
  );
  const items = members.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="xs" data-testid="group-panel">
      <Title order={2} size="h5">
        {t('groups.title')}
      </Title>
      <ErrorAlert error={axes.error} />
      {axes.data && axes.data.axes.length === 0 && <Text size="sm">{t('groups.none')}</Text>}
      {axes.data?.axes.map((a) => (
        <UnstyledButton
          key={a.axis}
          onClick={() => {
            setOpen(open === a.axis ? undefined : a.axis);
            setDone(undefined);
            change.reset();
          }}
          aria-expanded={open === a.axis}
          data-testid="group-axis"
          data-axis={a.axis}
          fz="sm"
        >
          <Text span fw={600} size="sm">
            {t(`groups.axis.${a.axis}`)}
          </Text>
          {': '}
          <code>{a.scanner ? `${a.scanner} / ${a.key}` : a.key}</code>{' '}
          <Text span size="sm" c="blue.9" td="underline" data-testid="group-count">
            {t('groups.count', { n: a.count })}
          </Text>
        </UnstyledButton>
      ))}
      {open && (
        <Stack gap="xs" data-testid="group-members">
          <ErrorAlert error={members.error} />
          <Table withTableBorder fz="xs" layout="fixed">
            <Table.Tbody>
              {items.map((f) => (
                <Table.Tr key={f.id} data-testid="group-member">
                  <Table.Td w={90}>
                    <SeverityBadge severity={f.severity} />
                  </Table.Td>
                  <Table.Td w={110}>
                    <StatusBadge status={f.status} />
                  </Table.Td>
                  <Table.Td style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    <Anchor component={Link} to={`/findings/${f.id}`} size="xs">
                      {f.title}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {members.hasNextPage && (
            <Button size="xs" variant="default" onClick={() => void members.fetchNextPage()}>
              {t('common.loadMore')}
            </Button>
          )}
          <BulkStatusFields
            testId="group-status"
            label={t('groups.statusForGroup')}
            pending={change.isPending}
            onApply={(c) => change.mutate({ axis: open, ...c })}
          />
          <ErrorAlert error={change.error} />
          {done && (
            <Group>
              <Text size="sm" role="status" data-testid="group-done">
                {done}
              </Text>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}

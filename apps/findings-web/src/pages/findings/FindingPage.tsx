import { ErrorAlert } from '@platform/web-ui';
import { Anchor, Grid, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import type { Finding } from '../../api/client';
import { SeverityBadge, StatusBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { SuppressFromFinding } from '../suppression/SuppressFromFinding';
import { ActionLog } from './ActionLog';
import { AssigneeForm } from './AssigneeForm';
import { AutoClosurePanel } from './AutoClosurePanel';
import { useFinding, useProduct } from './api/findings';
import { FindingFlows, relatedIdsOf } from './FindingFlows';
import { FindingLocation } from './FindingLocation';
import { FindingSources } from './FindingSources';
import { FindingTicket } from './FindingTicket';
import { Enrichment, TagsEditor } from './FindingTags';
import { listHref } from './list-place';
import { MessageText } from './MessageText';
import { ruleText } from './finding-place';
import { FindingComments } from './FindingComments';
import { StatusDecision } from './StatusDecision';
import { StatusForm } from './StatusForm';
import { FindingGroupPanel } from '../rollup/FindingGroupPanel';
import { MergedBanner, MergedMembers } from './FindingMerge';

function Deadline({ finding }: { finding: Finding }) {
  const { t, locale } = useI18n();
  return (
    <Stack
      gap={2}
      data-testid="deadline"
      data-due={finding.sla_due_at ?? ''}
      data-paused={finding.sla_paused_at ?? ''}
    >
      <Text size="sm" fw={600}>
        {t('finding.slaDue')}
      </Text>
      <Text size="sm">
        {finding.sla_due_at ? formatDate(finding.sla_due_at, locale) : t('finding.slaNotStarted')}
        {finding.sla_days !== null && finding.sla_days !== undefined
          ? ` (${t('unit.days', { n: finding.sla_days })})`
          : ''}
      </Text>
      {finding.sla_paused_at && (
        <Text size="sm" c="orange.9">
          {t('finding.slaPaused', { at: formatDate(finding.sla_paused_at, locale) })}
        </Text>
      )}
    </Stack>
  );
}

/** A fingerprint: text as it is; a map (SARIF `fingerprints`) one `name: value` per line. */
function FingerprintValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <>—</>;
  if (typeof value !== 'object') return <>{String(value)}</>;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <>—</>;
  return (
    <>
      {entries.map(([name, v]) => (
        <div key={name}>
          {name}: {typeof v === 'string' ? v : JSON.stringify(v)}
        </div>
      ))}
    </>
  );
}

/** Project, product (with its repository address), scanner and rule. */
function Origin({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const product = useProduct(finding.product_id);
  const rule = ruleText(finding);
  const repository = product.data?.repository_url;
  return (
    <Group gap="xs" wrap="wrap" data-testid="finding-origin">
      <Text size="sm" c="gray.8">
        <Anchor
          component={Link}
          to={`/projects/${finding.project_id}`}
          size="sm"
          underline="always"
        >
          {finding.project_name}
        </Anchor>{' '}
        / {finding.product_name}
        {repository && (
          <>
            {' '}
            (
            <Anchor
              href={/^https?:\/\//i.test(repository) ? repository : undefined}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              underline="always"
              data-testid="repository-url"
            >
              {repository}
            </Anchor>
            )
          </>
        )}
      </Text>
      <Text size="sm" c="gray.8">
        · {finding.scanner}
      </Text>
      <Text size="sm" c="gray.8" data-testid="finding-rule">
        · {t('findings.rule')}: <code>{rule.id}</code>
        {rule.name ? ` (${rule.name})` : ''}
      </Text>
      {finding.cve && (
        <Text size="sm" c="gray.8">
          · {finding.cve}
        </Text>
      )}
    </Group>
  );
}

export default function FindingPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const finding = useFinding(id);
  const product = useProduct(finding.data?.product_id ?? '');
  if (finding.error) return <ErrorAlert error={finding.error} />;
  const f = finding.data;
  if (!f) return <Text>{t('common.loading')}</Text>;
  return (
    <Stack gap="sm">
      <Anchor component={Link} to={listHref()} size="sm" data-testid="back-to-list">
        ← {t('finding.back')}
      </Anchor>
      <Group gap="xs" wrap="nowrap" align="start">
        <SeverityBadge severity={f.severity} />
        <StatusBadge status={f.status} />
        <Title order={1} size="h3" style={{ minWidth: 0 }}>
          {f.title}
        </Title>
      </Group>
      <Origin finding={f} />
      <MergedBanner finding={f} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }} style={{ minWidth: 0 }}>
          <Stack gap="sm">
            <MessageText text={f.description} relatedIds={relatedIdsOf(f.related_locations)} />
            <FindingLocation finding={f} repositoryUrl={product.data?.repository_url} />
            <FindingFlows
              related={f.related_locations}
              flows={f.code_flows}
              repositoryUrl={product.data?.repository_url}
              revision={f.revision}
            />
            <Title order={2} size="h5">
              {t('finding.sources')}
            </Title>
            <FindingSources sources={f.sources ?? {}} />
            <MergedMembers finding={f} />
            <Title order={2} size="h5">
              {t('finding.fingerprints')}
            </Title>
            <Table withTableBorder fz="xs" data-testid="fingerprints" layout="fixed">
              <Table.Tbody>
                {Object.entries(f.fingerprints ?? {}).map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Th w={180}>{name}</Table.Th>
                    <Table.Td ff="monospace">
                      <FingerprintValue value={value} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <FindingComments findingId={f.id} earlierNote={f.comment} />
            <ActionLog id={f.id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} style={{ minWidth: 0 }}>
          <Stack gap="sm">
            <Paper withBorder p="xs">
              <Deadline finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <AutoClosurePanel finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <Stack gap="xs">
                <StatusDecision
                  decision={f.status_decision}
                  riskAcceptedUntil={f.status === 'risk_accepted' ? f.risk_accepted_until : null}
                />
                <StatusForm finding={f} />
              </Stack>
            </Paper>
            <Paper withBorder p="xs">
              <FindingGroupPanel findingId={f.id} />
            </Paper>
            <Paper withBorder p="xs">
              <AssigneeForm finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <FindingTicket finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <TagsEditor finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <SuppressFromFinding finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <Enrichment finding={f} />
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

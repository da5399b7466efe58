import {
  Anchor,
  Card,
  Code,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { api, call, type Finding } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SeverityBadge, StatusBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { ActionLog } from './ActionLog';
import { AssigneeForm } from './AssigneeForm';
import { AutoClosurePanel } from './AutoClosurePanel';
import { Enrichment, TagsEditor } from './FindingTags';
import { StatusForm } from './StatusForm';

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
          ? ` (${finding.sla_days} d)`
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

function Location({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const l = finding.location;
  return (
    <Paper withBorder p="xs">
      <Text size="sm" fw={600}>
        {t('finding.location')}
      </Text>
      {l.file_path && (
        <Text size="sm" ff="monospace" data-testid="location">
          {l.file_path}
          {l.start_line
            ? `:${l.start_line}${l.end_line && l.end_line !== l.start_line ? `-${l.end_line}` : ''}`
            : ''}
        </Text>
      )}
      {l.url && <Text size="sm">{l.url}</Text>}
      {l.host && (
        <Text size="sm">
          {l.host}
          {l.ip ? ` (${l.ip})` : ''}
          {l.port ? `:${l.port}` : ''} {l.protocol ?? ''} {l.service ?? ''}
        </Text>
      )}
      {l.logical_location && <Text size="sm">{l.logical_location}</Text>}
      {l.snippet && (
        <Code block mt={4} data-testid="snippet">
          {l.snippet}
        </Code>
      )}
    </Paper>
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

export default function FindingPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const finding = useQuery({
    queryKey: ['finding', id],
    queryFn: () => call(api.GET('/api/v1/findings/{id}', { params: { path: { id } } })),
  });
  if (finding.error) return <ErrorAlert error={finding.error} />;
  const f = finding.data;
  if (!f) return <Text>{t('common.loading')}</Text>;
  const sources = Object.entries(f.sources ?? {});
  return (
    <Stack gap="sm">
      <Anchor component={Link} to="/findings" size="sm">
        ← {t('finding.back')}
      </Anchor>
      <Group gap="xs">
        <SeverityBadge severity={f.severity} />
        <StatusBadge status={f.status} />
        <Title order={1} size="h3">
          {f.title}
        </Title>
      </Group>
      <Text size="sm" c="gray.8">
        {f.project_name} / {f.product_name} · {f.scanner} · {f.rule_id} {f.cve ? `· ${f.cve}` : ''}
      </Text>
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {f.description}
            </Text>
            <Location finding={f} />
            <Title order={2} size="h5">
              {t('finding.sources')}
            </Title>
            <SimpleGrid
              cols={{ base: 1, md: Math.min(3, Math.max(1, sources.length)) }}
              data-testid="sources"
            >
              {sources.map(([scanner, source]) => (
                <Card key={scanner} withBorder padding="xs">
                  <Text size="sm" fw={600}>
                    {scanner}
                  </Text>
                  <Code block fz="xs">
                    {JSON.stringify(source, null, 2)}
                  </Code>
                </Card>
              ))}
            </SimpleGrid>
            <Title order={2} size="h5">
              {t('finding.fingerprints')}
            </Title>
            <Table withTableBorder fz="xs" data-testid="fingerprints">
              <Table.Tbody>
                {Object.entries(f.fingerprints ?? {}).map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Th>{name}</Table.Th>
                    <Table.Td ff="monospace">
                      <FingerprintValue value={value} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ActionLog id={f.id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="sm">
            <Paper withBorder p="xs">
              <Deadline finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <AutoClosurePanel finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <StatusForm finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <AssigneeForm finding={f} />
            </Paper>
            <Paper withBorder p="xs">
              <TagsEditor finding={f} />
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

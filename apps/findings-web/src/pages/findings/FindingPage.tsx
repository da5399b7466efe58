import {
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Grid,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { STATUSES, api, call, type Finding, type FindingStatus } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SeverityBadge, StatusBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { ActionLog } from './ActionLog';

const DAY_MS = 24 * 60 * 60 * 1000;

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/** The end of a picked day (local time), as the API's date-time. */
function endOfDay(day: string): string {
  return new Date(`${day}T23:59:00`).toISOString();
}

function StatusForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<FindingStatus | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const [reason, setReason] = useState('');
  const [waitingUntil, setWaitingUntil] = useState(isoDay(7));
  const [comment, setComment] = useState('');
  const change = useMutation({
    mutationFn: () => {
      const target = status ?? finding.status;
      return call(
        api.PATCH('/api/v1/findings/{id}', {
          params: { path: { id: finding.id } },
          body: {
            status: target,
            ...(target === 'risk_accepted' ? { risk_accepted_until: endOfDay(riskUntil) } : {}),
            ...(target === 'waiting'
              ? {
                  waiting_reason: reason,
                  waiting_until: new Date(`${waitingUntil}T12:00:00`).toISOString(),
                }
              : {}),
            ...(comment ? { comment } : {}),
          },
        }),
      );
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(['finding', finding.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['finding-actions', finding.id] });
      void queryClient.invalidateQueries({ queryKey: ['findings'] });
      setStatus(null);
      setComment('');
    },
  });
  const waitingTooFar = status === 'waiting' && waitingUntil > isoDay(30);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t('finding.changeStatus')}>
      <Stack gap="xs">
        <Select
          size="xs"
          label={t('finding.targetStatus')}
          data={STATUSES.filter((s) => s !== finding.status).map((s) => ({
            value: s,
            label: t(`status.${s}`),
          }))}
          value={status}
          onChange={(v) => setStatus(v as FindingStatus | null)}
        />
        {status === 'risk_accepted' && (
          <TextInput
            size="xs"
            type="date"
            required
            label={t('finding.riskUntil')}
            min={isoDay(1)}
            value={riskUntil}
            onChange={(e) => setRiskUntil(e.currentTarget.value)}
          />
        )}
        {status === 'waiting' && (
          <>
            <TextInput
              size="xs"
              required
              label={t('finding.waitingReason')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <TextInput
              size="xs"
              type="date"
              required
              label={t('finding.waitingUntil')}
              min={isoDay(0)}
              max={isoDay(30)}
              value={waitingUntil}
              onChange={(e) => setWaitingUntil(e.currentTarget.value)}
              error={waitingTooFar ? t('finding.waitingTooFar') : undefined}
            />
          </>
        )}
        <Textarea
          size="xs"
          label={t('finding.comment')}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
        <ErrorAlert error={change.error} />
        <Button
          size="xs"
          type="submit"
          disabled={!status || waitingTooFar}
          loading={change.isPending}
        >
          {t('finding.changeStatus')}
        </Button>
      </Stack>
    </form>
  );
}

function AssigneeForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ['members', finding.project_id],
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/members', { params: { path: { id: finding.project_id } } }),
      ),
  });
  const assign = useMutation({
    mutationFn: (assignee: string | null) =>
      call(
        api.PATCH('/api/v1/findings/{id}', {
          params: { path: { id: finding.id } },
          body: { assignee_id: assignee },
        }),
      ),
    onSuccess: (updated) => {
      queryClient.setQueryData(['finding', finding.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['finding-actions', finding.id] });
    },
  });
  return (
    <Stack gap={4}>
      <Select
        size="xs"
        label={t('finding.assignee')}
        placeholder={t('finding.unassigned')}
        data={(members.data ?? []).map((m) => ({
          value: m.user_id,
          label: `${m.display_name || m.email} (${m.role})`,
        }))}
        value={finding.assignee_id ?? null}
        onChange={(v) => assign.mutate(v)}
        clearable
      />
      <ErrorAlert error={assign.error ?? members.error} />
    </Stack>
  );
}

function TagsEditor({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [tag, setTag] = useState('');
  const onSuccess = (updated: Finding) => {
    queryClient.setQueryData(['finding', finding.id], updated);
    void queryClient.invalidateQueries({ queryKey: ['finding-actions', finding.id] });
    setTag('');
  };
  const add = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/findings/{id}/tags', {
          params: { path: { id: finding.id } },
          body: { tags: [tag.trim()] },
        }),
      ),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (name: string) =>
      call(
        api.DELETE('/api/v1/findings/{id}/tags', {
          params: { path: { id: finding.id } },
          body: { tags: [name] },
        }),
      ),
    onSuccess,
  });
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('finding.manualTags')}
      </Text>
      <Group gap={4} data-testid="manual-tags">
        {(finding.tags ?? []).map((name) => (
          <Badge
            key={name}
            variant="outline"
            color="dark"
            rightSection={
              <button
                type="button"
                aria-label={`${t('common.remove')} ${name}`}
                onClick={() => remove.mutate(name)}
                style={{ border: 0, background: 'none', cursor: 'pointer', padding: 0 }}
              >
                ×
              </button>
            }
          >
            {name}
          </Badge>
        ))}
      </Group>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (tag.trim()) add.mutate();
        }}
      >
        <Group gap={4} align="end">
          <TextInput
            size="xs"
            label={t('finding.addTag')}
            value={tag}
            onChange={(e) => setTag(e.currentTarget.value)}
          />
          <Button size="xs" type="submit">
            {t('common.add')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={add.error ?? remove.error} />
      <Text size="sm" fw={600}>
        {t('finding.enrichmentTags')}
      </Text>
      <Group gap={4} data-testid="enrichment-tags">
        {(finding.enrichment_tags ?? []).map((name) => (
          <Badge key={name} variant="light" color="gray.8">
            {name}
          </Badge>
        ))}
      </Group>
      <Text size="sm" fw={600}>
        {t('finding.reportTags')}
      </Text>
      <Group gap={4}>
        {(finding.report_tags ?? []).map((name) => (
          <Badge key={name} variant="light" color="gray.8">
            {name}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

/** Enrichment by button: one per enabled enricher plugin (GET /plugins/capabilities/finding-enrichers). */
function Enrichment({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const enrichers = useQuery({
    queryKey: ['finding-enrichers'],
    queryFn: () => call(api.GET('/api/v1/plugins/capabilities/finding-enrichers')),
    staleTime: 60_000,
  });
  const enrich = useMutation({
    mutationFn: (pluginId: string) =>
      call(
        api.POST('/api/v1/findings/{id}/enrich-tags/{plugin_id}', {
          params: { path: { id: finding.id, plugin_id: pluginId } },
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData<Finding>(['finding', finding.id], (old) =>
        old ? { ...old, enrichment_tags: result.enrichment_tags } : old,
      );
      void queryClient.invalidateQueries({ queryKey: ['finding-actions', finding.id] });
    },
  });
  return (
    <Stack gap={4} data-testid="enrichment">
      <Text size="sm" fw={600}>
        {t('finding.enrich')}
      </Text>
      {enrichers.data?.length === 0 && <Text size="sm">{t('finding.noEnrichers')}</Text>}
      <Group gap={4}>
        {(enrichers.data ?? []).map((e) => (
          <Button
            key={e.id}
            size="xs"
            variant="default"
            loading={enrich.isPending && enrich.variables === e.id}
            onClick={() => enrich.mutate(e.id)}
          >
            {t('finding.enrichWith', { name: `${e.catalog_plugin_id} ${e.version}` })}
          </Button>
        ))}
      </Group>
      <ErrorAlert error={enrichers.error ?? enrich.error} />
    </Stack>
  );
}

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

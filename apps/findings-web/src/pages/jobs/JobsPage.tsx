import { ErrorAlert } from '@platform/web-ui';
import { Anchor, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, call, latestError, type Schemas } from '../../api/client';
import { acceptLanguage } from '../../api/session';
import { formatDate } from '../../components/labels';
import { useI18n, type Translate } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';

type JobState = Schemas['JobDto']['state'];
const STATES: JobState[] = ['waiting', 'active', 'delayed', 'completed', 'failed'];

/** Upload to finish: `850 ms`, `12.4 s`, `3 min 5 s`; a dash while it runs. */
function duration(ms: number | null | undefined, t: Translate): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return t('unit.ms', { n: ms });
  if (ms < 60_000) return t('unit.seconds', { n: Math.round(ms / 100) / 10 });
  const minutes = Math.floor(ms / 60_000);
  return t('unit.minutes', { m: minutes, s: Math.round((ms - minutes * 60_000) / 1000) });
}

export default function JobsPage() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [state, setState] = useState<JobState | null>(null);
  const stats = useQuery({
    queryKey: ['job-stats'],
    queryFn: () => call(api.GET('/api/v1/jobs/stats')),
    refetchInterval: 5000,
  });
  const jobs = useQuery({
    queryKey: ['jobs', state],
    queryFn: () =>
      call(
        api.GET('/api/v1/jobs', {
          params: {
            query: { limit: 100, ...(state ? { state } : {}) },
            header: { 'Accept-Language': acceptLanguage() },
          },
        }),
      ),
    refetchInterval: 5000,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['jobs'] });
    void queryClient.invalidateQueries({ queryKey: ['job-stats'] });
  };
  const retry = useMutation({
    mutationFn: (id: string) =>
      call(
        api.POST('/api/v1/jobs/{id}/retry', {
          params: { path: { id }, header: { 'Accept-Language': acceptLanguage() } },
        }),
      ),
    onSuccess: refresh,
  });
  const cancel = useMutation({
    mutationFn: (id: string) =>
      call(api.POST('/api/v1/jobs/{id}/cancel', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('jobs.title')}
      </Title>
      <Group gap="md" data-testid="job-stats">
        {stats.data &&
          STATES.map((s) => (
            <Text key={s} size="sm">
              {t(`jobs.state.${s}`)}: <b>{stats.data[s]}</b>
            </Text>
          ))}
      </Group>
      <Select
        size="xs"
        w={180}
        label={t('common.state')}
        data={STATES.map((s) => ({ value: s, label: t(`jobs.state.${s}`) }))}
        value={state}
        onChange={(v) => setState(v as JobState | null)}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <ErrorAlert error={jobs.error ?? stats.error ?? latestError(retry, cancel)} />
      <Table striped withTableBorder fz="sm" data-testid="jobs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('jobs.kind')}</Table.Th>
            <Table.Th>{t('jobs.where')}</Table.Th>
            <Table.Th>{t('common.state')}</Table.Th>
            <Table.Th>{t('jobs.counts')}</Table.Th>
            <Table.Th>{t('jobs.duration')}</Table.Th>
            <Table.Th>{t('jobs.attempts')}</Table.Th>
            <Table.Th>{t('common.created')}</Table.Th>
            <Table.Th>{t('jobs.reason')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(jobs.data ?? []).map((job) => (
            <Table.Tr key={job.id} data-testid={`job-${job.id}`}>
              <Table.Td>
                <Text size="sm">{lookUp(t, 'jobs.kindName', job.kind)}</Text>
                {job.file_name && (
                  <Text size="sm" ff="monospace" data-testid="job-file">
                    {job.file_name}
                  </Text>
                )}
              </Table.Td>
              <Table.Td data-testid="job-where">
                {job.project_id ? (
                  <Anchor component={Link} to={`/projects/${job.project_id}`} size="sm">
                    {job.project_name ?? t('findings.project')}
                  </Anchor>
                ) : (
                  '—'
                )}
                {job.product_name && ` / ${job.product_name}`}
              </Table.Td>
              <Table.Td data-testid="job-state" data-state={job.state}>
                {t(`jobs.state.${job.state}`)}
              </Table.Td>
              <Table.Td data-testid="job-counts">
                {job.counts
                  ? t('jobs.countsText', {
                      results: job.counts.results,
                      new: job.counts.new,
                      updated: job.counts.updated,
                      duplicates: job.counts.duplicates,
                    })
                  : '—'}
              </Table.Td>
              <Table.Td data-testid="job-duration">{duration(job.duration_ms, t)}</Table.Td>
              <Table.Td>
                {job.attempts_made}/{job.attempts}
              </Table.Td>
              <Table.Td>{formatDate(job.created_at, locale)}</Table.Td>
              <Table.Td data-testid="job-failure">
                {job.failure_reason ?? job.failed_reason}
                {job.failure_code && (
                  <Text size="xs" c="gray.8">
                    <code>{job.failure_code}</code>
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {job.state === 'failed' && job.retryable && (
                    <Button size="xs" variant="default" onClick={() => retry.mutate(job.id)}>
                      {t('common.retry')}
                    </Button>
                  )}
                  {(job.state === 'waiting' ||
                    job.state === 'delayed' ||
                    job.state === 'active') && (
                    <Button size="xs" variant="default" onClick={() => cancel.mutate(job.id)}>
                      {t('jobs.cancel')}
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

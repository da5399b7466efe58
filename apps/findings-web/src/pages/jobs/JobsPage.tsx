import { Anchor, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, call, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';

type JobState = Schemas['JobDto']['state'];
const STATES: JobState[] = ['waiting', 'active', 'delayed', 'completed', 'failed'];

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
        api.GET('/api/v1/jobs', { params: { query: { limit: 100, ...(state ? { state } : {}) } } }),
      ),
    refetchInterval: 5000,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['jobs'] });
    void queryClient.invalidateQueries({ queryKey: ['job-stats'] });
  };
  const retry = useMutation({
    mutationFn: (id: string) =>
      call(api.POST('/api/v1/jobs/{id}/retry', { params: { path: { id } } })),
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
              {s}: <b>{stats.data[s]}</b>
            </Text>
          ))}
      </Group>
      <Select
        size="xs"
        w={180}
        label={t('common.state')}
        data={STATES}
        value={state}
        onChange={(v) => setState(v as JobState | null)}
        clearable
      />
      <ErrorAlert error={jobs.error ?? stats.error ?? retry.error ?? cancel.error} />
      <Table striped withTableBorder fz="sm" data-testid="jobs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('jobs.kind')}</Table.Th>
            <Table.Th>{t('common.state')}</Table.Th>
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
                {job.kind}
                {job.project_id && (
                  <>
                    {' '}
                    <Anchor component={Link} to={`/projects/${job.project_id}`} size="sm">
                      {t('findings.project')}
                    </Anchor>
                  </>
                )}
              </Table.Td>
              <Table.Td data-testid="job-state">{job.state}</Table.Td>
              <Table.Td>
                {job.attempts_made}/{job.attempts}
              </Table.Td>
              <Table.Td>{formatDate(job.created_at, locale)}</Table.Td>
              <Table.Td>{job.failed_reason}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {job.state === 'failed' && (
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

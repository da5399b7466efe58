import { ErrorAlert } from '@platform/web-ui';
import { Anchor, Button, Checkbox, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, call, type Severity } from '../../api/client';
import { SeverityBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { DueSoon } from './DueSoon';

export default function DeadlinesPage() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [onlyOpen, setOnlyOpen] = useState(true);
  const [comments, setComments] = useState<Record<string, string>>({});
  const violations = useInfiniteQuery({
    queryKey: ['violations', onlyOpen],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/sla/violations', {
          params: { query: { state: onlyOpen ? 'open' : 'all', limit: 100, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const resolve = useMutation({
    mutationFn: (id: string) =>
      call(
        api.POST('/api/v1/sla/violations/{id}/resolve', {
          params: { path: { id } },
          body: { comment: comments[id] ?? '' },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['violations'] }),
  });
  const rows = violations.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('deadlines.title')}
      </Title>
      <DueSoon />
      <Checkbox
        label={t('deadlines.onlyOpen')}
        checked={onlyOpen}
        onChange={(e) => setOnlyOpen(e.currentTarget.checked)}
      />
      <ErrorAlert error={violations.error ?? resolve.error} />
      <Table striped withTableBorder fz="sm" data-testid="violations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('findings.severity')}</Table.Th>
            <Table.Th>{t('findings.titleCol')}</Table.Th>
            <Table.Th>{t('findings.project')}</Table.Th>
            <Table.Th>{t('deadlines.kind')}</Table.Th>
            <Table.Th>{t('deadlines.dueAt')}</Table.Th>
            <Table.Th>{t('common.state')}</Table.Th>
            <Table.Th>{t('deadlines.resolve')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {violations.data && rows.length === 0 && (
            <Table.Tr data-testid="violations-empty">
              <Table.Td colSpan={7}>{t('deadlines.violationsEmpty')}</Table.Td>
            </Table.Tr>
          )}
          {rows.map((v) => (
            <Table.Tr key={v.id} data-testid={`violation-${v.id}`}>
              <Table.Td>
                <SeverityBadge severity={v.severity as Severity} />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/findings/${v.finding_id}`} size="sm">
                  {v.finding_title}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {v.project_name} / {v.product_name}
              </Table.Td>
              <Table.Td>{lookUp(t, 'deadlines.kind', v.kind)}</Table.Td>
              <Table.Td>{formatDate(v.due_at, locale)}</Table.Td>
              <Table.Td data-testid="violation-state">
                {v.resolved_at ? `${v.state} (${v.resolution})` : v.state}
              </Table.Td>
              <Table.Td>
                {!v.resolved_at && (
                  <Group gap={4} wrap="nowrap">
                    <TextInput
                      size="xs"
                      aria-label={t('deadlines.comment')}
                      placeholder={t('deadlines.comment')}
                      value={comments[v.id] ?? ''}
                      onChange={(e) => setComments({ ...comments, [v.id]: e.currentTarget.value })}
                    />
                    <Button size="xs" variant="default" onClick={() => resolve.mutate(v.id)}>
                      {t('deadlines.resolve')}
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {violations.hasNextPage && (
        <Button size="xs" variant="default" onClick={() => void violations.fetchNextPage()}>
          {t('common.loadMore')}
        </Button>
      )}
    </Stack>
  );
}

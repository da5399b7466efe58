import { ErrorAlert } from '@platform/web-ui';
import { Badge, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, type Schemas } from '../../api/client';
import { formatDate } from '../../components/labels';
import type { MessageKey } from '../../i18n/en';
import { useI18n } from '../../i18n/i18n';
import { refreshPerimeter } from './ScopeEntries';
import { ScopeValue } from './ScopeValue';

type Status = 'pending' | 'confirmed' | 'rejected' | 'all';
type Proposal = Schemas['ScopeProposalDto'];

const STATUS_LABELS: Record<string, MessageKey> = {
  pending: 'scope.status.pending',
  confirmed: 'scope.status.confirmed',
  rejected: 'scope.status.rejected',
  all: 'scope.status.all',
};

function Decision({ projectId, proposal }: { projectId: string; proposal: Proposal }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'confirm' | 'reject') =>
      call(
        decision === 'confirm'
          ? api.POST('/api/v1/projects/{id}/scope/proposals/{proposal_id}/confirm', {
              params: { path: { id: projectId, proposal_id: proposal.id } },
              body: {},
            })
          : api.POST('/api/v1/projects/{id}/scope/proposals/{proposal_id}/reject', {
              params: { path: { id: projectId, proposal_id: proposal.id } },
              body: {},
            }),
      ),
    onSuccess: () => refreshPerimeter(queryClient, projectId),
  });
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button
          size="xs"
          aria-label={t('scope.confirmProposal', { value: proposal.value_unicode })}
          loading={decide.isPending && decide.variables === 'confirm'}
          onClick={() => decide.mutate('confirm')}
        >
          {t('scope.confirm')}
        </Button>
        <Button
          size="xs"
          variant="default"
          aria-label={t('scope.rejectProposal', { value: proposal.value_unicode })}
          loading={decide.isPending && decide.variables === 'reject'}
          onClick={() => decide.mutate('reject')}
        >
          {t('scope.reject')}
        </Button>
      </Group>
      <ErrorAlert error={decide.error} />
    </Stack>
  );
}

/**
 * What scanners proposed: pending by default. A proposal widens nothing until a project admin
 * confirms it (it becomes an include entry); a rejected one stays rejected.
 */
export function ScopeProposals({
  projectId,
  canManage,
}: {
  projectId: string;
  canManage: boolean;
}) {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<Status>('pending');
  const proposals = useInfiniteQuery({
    queryKey: ['scope-proposals', projectId, status],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/projects/{id}/scope/proposals', {
          params: { path: { id: projectId }, query: { status, limit: 100, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = proposals.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Paper withBorder p="xs">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h5">
            {t('scope.proposals')}
          </Title>
          <Select
            size="xs"
            w={180}
            aria-label={t('scope.status')}
            value={status}
            allowDeselect={false}
            onChange={(v) => v && setStatus(v as Status)}
            data={Object.entries(STATUS_LABELS).map(([value, label]) => ({
              value,
              label: t(label),
            }))}
          />
        </Group>
        <ErrorAlert error={proposals.error} />
        {proposals.isSuccess && rows.length === 0 && (
          <Text size="sm">{t('scope.noProposals')}</Text>
        )}
        {rows.length > 0 && (
          <Table withTableBorder fz="sm" data-testid="scope-proposals">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('scope.value')}</Table.Th>
                <Table.Th>{t('scope.kind')}</Table.Th>
                <Table.Th>{t('scope.proposedBy')}</Table.Th>
                <Table.Th>{t('scope.timesProposed')}</Table.Th>
                <Table.Th>{t('scope.comment')}</Table.Th>
                <Table.Th>{t('scope.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid="scope-proposal">
                  <Table.Td>
                    <ScopeValue value={p.value} unicode={p.value_unicode} />
                  </Table.Td>
                  <Table.Td>{p.kind}</Table.Td>
                  <Table.Td>
                    {p.proposed_by.label ?? p.proposed_by.type}
                    <Text size="xs">{formatDate(p.last_proposed_at, locale)}</Text>
                  </Table.Td>
                  <Table.Td>{p.times_proposed}</Table.Td>
                  <Table.Td>{p.comment ?? t('common.none')}</Table.Td>
                  <Table.Td>
                    {p.status === 'pending' && canManage ? (
                      <Decision projectId={projectId} proposal={p} />
                    ) : (
                      <Badge size="sm" variant="outline" color="dark" data-testid="proposal-status">
                        {t(STATUS_LABELS[p.status] ?? 'scope.status.pending')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {proposals.hasNextPage && (
          <Button
            size="xs"
            variant="default"
            onClick={() => void proposals.fetchNextPage()}
            loading={proposals.isFetchingNextPage}
          >
            {t('common.loadMore')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

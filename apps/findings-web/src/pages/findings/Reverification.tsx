import { ErrorAlert } from '@platform/web-ui';
import { Button, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Finding } from '../../api/client';
import {
  listVerifications,
  requestVerification,
  type Verification,
} from '../../api/reverification';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { useCanWrite } from './finding-access';

const STATE_COLOR: Record<Verification['state'], string> = {
  pending: 'gray.8',
  answered: '#1e6b30',
  failed: 'red.9',
};

function Requested({ v }: { v: Verification }) {
  const { t, locale } = useI18n();
  const who =
    v.origin === 'scanner'
      ? t('reverify.byScanner')
      : v.requested_by
        ? t('reverify.by', { who: v.requested_by })
        : t('reverify.automatic');
  return (
    <>
      {formatDate(v.requested_at, locale)} {who}
    </>
  );
}

function Answer({ v }: { v: Verification }) {
  const { t, locale } = useI18n();
  if (v.state === 'failed') return <>{t('reverify.failed', { reason: v.delivery_error ?? '—' })}</>;
  if (v.state !== 'answered' || !v.result) return <>—</>;
  return (
    <>
      {t('reverify.answered', {
        result: lookUp(t, 'verdict', v.result),
        at: formatDate(v.answered_at, locale),
        key: v.key_id ?? '—',
      })}
      {v.details ? ` — ${v.details}` : ''}
    </>
  );
}

/**
 * Manual re-verification (only when the API mounts its routes: FEATURE_MANUAL_REVERIFICATION;
 * otherwise nothing is shown): ask the project's scanner now, and every request with its state,
 * who asked, the answer and the key that signed it. Pending requests are polled.
 */
export function Reverification({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(finding);
  const requests = useQuery({
    queryKey: ['reverification', finding.id],
    queryFn: async () => (await listVerifications(finding.id)) ?? null,
    refetchInterval: (query) =>
      query.state.data?.some((v) => v.state === 'pending') ? 2000 : false,
  });
  const ask = useMutation({
    mutationFn: () => requestVerification(finding.id),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['reverification', finding.id] });
      void queryClient.invalidateQueries({ queryKey: ['auto-closure', finding.id] });
    },
  });
  // An answer (or a failure) may have changed the closure state and the finding itself.
  const states = requests.data?.map((v) => `${v.id}:${v.state}`).join();
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (states === undefined || seen.current === states) return;
    const first = seen.current === undefined;
    seen.current = states;
    if (first) return;
    for (const key of ['auto-closure', 'finding', 'finding-actions']) {
      void queryClient.invalidateQueries({ queryKey: [key, finding.id] });
    }
  }, [states, finding.id, queryClient]);
  // null: the routes are not mounted (the feature is off); undefined: still loading.
  if (requests.data === null) return null;
  const list = requests.data ?? [];
  return (
    <Stack gap={4} data-testid="reverification">
      <Title order={3} size="h6">
        {t('reverify.title')}
      </Title>
      {canWrite && (
        <Button size="xs" variant="default" loading={ask.isPending} onClick={() => ask.mutate()}>
          {t('reverify.ask')}
        </Button>
      )}
      <ErrorAlert error={ask.error ?? requests.error} />
      {requests.isSuccess && list.length === 0 && <Text size="xs">{t('reverify.none')}</Text>}
      {list.length > 0 && (
        <Table fz="xs" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('reverify.requested')}</Table.Th>
              <Table.Th>{t('common.state')}</Table.Th>
              <Table.Th>{t('reverify.answer')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((v) => (
              <Table.Tr key={v.id} data-testid="verification" data-state={v.state}>
                <Table.Td>
                  <Requested v={v} />
                </Table.Td>
                <Table.Td fw={700} c={STATE_COLOR[v.state]}>
                  {lookUp(t, 'reverify.state', v.state)}
                </Table.Td>
                <Table.Td data-testid="verification-answer">
                  <Answer v={v} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

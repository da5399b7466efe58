import { ErrorAlert, formatDate } from '@platform/web-ui';
import { Button, Code, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';
import type { MessageKey } from '../../i18n/en';
import { useI18n } from '../../i18n/i18n';

type Entry = Schemas['SuppressionRuleActionDto'];

const PAGE = 50;

/** What an entry changed, in a line: the text before and after, findings released, a run's counts. */
function Detail({ entry }: { entry: Entry }) {
  const { t } = useI18n();
  const to = entry.to ?? {};
  const from = entry.from ?? {};
  const parts: string[] = [];
  if (typeof to['released'] === 'number' && to['released'] > 0) {
    parts.push(t('suppression.history.released', { count: to['released'] }));
  }
  if (typeof to['matched'] === 'number' && entry.action !== 'run_started') {
    parts.push(t('suppression.history.matched', { count: to['matched'] }));
  }
  if (typeof to['cause'] === 'string') {
    parts.push(t('suppression.history.cause', { cause: to['cause'] }));
  }
  const changedQuery =
    entry.action !== 'created' &&
    typeof from['query'] === 'string' &&
    from['query'] !== to['query'];
  return (
    <Stack gap={0}>
      {entry.action === 'created' && typeof to['query'] === 'string' && <Code>{to['query']}</Code>}
      {changedQuery && (
        <Text size="xs">
          <Code>{String(from['query'])}</Code> → <Code>{String(to['query'])}</Code>
        </Text>
      )}
      {parts.length > 0 && <Text size="xs">{parts.join(' · ')}</Text>}
    </Stack>
  );
}

/**
 * A rule's log (GET …/suppression-rules/{rule_id}/actions), oldest first: who created, changed,
 * enabled, disabled or ran it, with the findings each change released and each run's counts.
 */
export function RuleHistory({ projectId, ruleId }: { projectId: string; ruleId: string }) {
  const { t, locale } = useI18n();
  const log = useInfiniteQuery({
    queryKey: ['suppression-rule-log', projectId, ruleId],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/projects/{id}/suppression-rules/{rule_id}/actions', {
          params: {
            path: { id: projectId, rule_id: ruleId },
            query: { limit: PAGE, ...(pageParam !== undefined ? { after: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (last) =>
      last.length === PAGE ? Number(last[last.length - 1]?.id) : undefined,
  });
  const entries = log.data?.pages.flat() ?? [];
  return (
    <Stack gap={4} data-testid="suppression-rule-log">
      <ErrorAlert error={log.error} />
      <Table fz="xs" aria-label={t('suppression.history.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('suppression.history.at')}</Table.Th>
            <Table.Th>{t('suppression.history.who')}</Table.Th>
            <Table.Th>{t('suppression.history.what')}</Table.Th>
            <Table.Th>{t('suppression.history.detail')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-testid="suppression-rule-log-entry">
              <Table.Td>{formatDate(entry.at, locale)}</Table.Td>
              <Table.Td>{entry.actor.label ?? t('suppression.history.system')}</Table.Td>
              <Table.Td>{t(`suppression.history.action.${entry.action}` as MessageKey)}</Table.Td>
              <Table.Td>
                <Detail entry={entry} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {log.hasNextPage && (
        <Button
          size="compact-xs"
          variant="default"
          loading={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {t('suppression.history.more')}
        </Button>
      )}
    </Stack>
  );
}

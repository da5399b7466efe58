import { ErrorAlert } from '@platform/web-ui';
import {
  Button,
  Group,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError, SEVERITIES, STATUSES } from '../../api/client';
import { SeverityBadge } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { FilterBar, QueryBar } from '../findings/FindingsFilters';
import type { ViewState } from '../findings/view-state';
import { ROLLUP_AXES, useRollup, type RollupSort } from './rollup-api';
import { readRollupView, rollupSelection, writeRollupView, type RollupView } from './rollup-view';
import { RollupRowPanel } from './RollupRowPanel';

/**
 * The inventory roll-up: the list's selection (filters or query) by package, host or CVE, one
 * row per key with counts by severity and state, sorted and paged; a row opens its findings
 * and a bulk action (accept risk, won't fix, one task for the group).
 */
export default function RollupPage() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readRollupView(params), [params]);
  const setView = useCallback((next: RollupView) => setParams(writeRollupView(next)), [setParams]);
  const setList = useCallback(
    (list: ViewState) => setView({ ...view, list, key: undefined }),
    [setView, view],
  );
  const selection = useMemo(() => rollupSelection(view), [view]);
  const rollup = useRollup(view.axis, selection, view.sort, view.order);
  const rows = rollup.data?.pages.flatMap((p) => p.items) ?? [];
  const error = rollup.error instanceof ApiError ? rollup.error : undefined;

  const sortHeader = (sort: RollupSort, label: React.ReactNode) => {
    const current = view.sort === sort;
    const order = current
      ? view.order === 'desc'
        ? 'asc'
        : 'desc'
      : sort === 'key'
        ? 'asc'
        : 'desc';
    return (
      <UnstyledButton
        onClick={() => setView({ ...view, sort, order, key: undefined })}
        fw={600}
        fz="sm"
        data-testid={`rollup-sort-${sort}`}
      >
        {label}
        {current ? <span aria-hidden="true">{view.order === 'asc' ? ' ▲' : ' ▼'}</span> : undefined}
      </UnstyledButton>
    );
  };

  const ariaSort = (sort: RollupSort) =>
    view.sort === sort ? (view.order === 'asc' ? 'ascending' : 'descending') : undefined;

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('rollup.title')}
        </Title>
        <Switch
          label={t('findings.queryMode')}
          checked={view.list.mode === 'query'}
          onChange={(e) =>
            setList({ ...view.list, mode: e.currentTarget.checked ? 'query' : 'filters' })
          }
        />
      </Group>
      {view.list.mode === 'query' ? (
        <QueryBar key={view.list.q} view={view.list} error={error} onChange={setList} />
      ) : (
        <FilterBar view={view.list} onChange={setList} />
      )}
      <SegmentedControl
        size="xs"
        aria-label={t('rollup.axis')}
        value={view.axis}
        onChange={(v) => setView({ ...view, axis: v as RollupView['axis'], key: undefined })}
        data={ROLLUP_AXES.map((a) => ({ value: a, label: t(`groups.axis.${a}`) }))}
        data-testid="rollup-axis"
      />
      {error?.code !== 'query_syntax_error' && <ErrorAlert error={rollup.error} />}
      {view.key !== undefined && (
        <RollupRowPanel
          key={`${view.axis}:${view.key}`}
          axis={view.axis}
          rowKey={view.key}
          selection={selection}
          onClose={() => setView({ ...view, key: undefined })}
        />
      )}
      <Table striped withTableBorder fz="sm" data-testid="rollup-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th aria-sort={ariaSort('key')}>
              {sortHeader('key', t(`groups.axis.${view.axis}`))}
            </Table.Th>
            <Table.Th w={80} aria-sort={ariaSort('total')}>
              {sortHeader('total', t('rollup.total'))}
            </Table.Th>
            {SEVERITIES.map((s) => (
              <Table.Th key={s} w={90} aria-sort={ariaSort(s.toLowerCase() as RollupSort)}>
                {sortHeader(s.toLowerCase() as RollupSort, <SeverityBadge severity={s} />)}
              </Table.Th>
            ))}
            <Table.Th>{t('rollup.byState')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rollup.data && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={8}>{t('rollup.empty')}</Table.Td>
            </Table.Tr>
          )}
          {rows.map((r) => (
            <Table.Tr key={r.key} data-testid="rollup-row" data-key={r.key}>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                <UnstyledButton
                  onClick={() => setView({ ...view, key: r.key })}
                  fz="sm"
                  c="blue.9"
                  td="underline"
                  aria-expanded={view.key === r.key}
                >
                  <code>{r.key}</code>
                </UnstyledButton>
              </Table.Td>
              <Table.Td data-testid="rollup-total">{r.total}</Table.Td>
              {SEVERITIES.map((s) => (
                <Table.Td key={s} data-testid={`rollup-${s}`}>
                  {r.by_severity[s] || ''}
                </Table.Td>
              ))}
              <Table.Td>
                {STATUSES.filter((s) => r.by_status[s] > 0).map((s) => (
                  <Text span key={s} size="xs" mr={8}>
                    {t(`status.${s}`)} {r.by_status[s]}
                  </Text>
                ))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rollup.hasNextPage && (
        <Button
          size="xs"
          variant="default"
          onClick={() => void rollup.fetchNextPage()}
          loading={rollup.isFetchingNextPage}
        >
          {t('common.loadMore')}
        </Button>
      )}
    </Stack>
  );
}

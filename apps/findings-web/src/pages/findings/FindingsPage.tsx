import {
  Alert,
  Anchor,
  Checkbox,
  Group,
  Stack,
  Switch,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, api, call, type Finding } from '../../api/client';
import type { paths } from '../../api/schema.gen';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SeverityBadge, StatusBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { BulkBar } from './BulkBar';
import { FilterBar, QueryBar } from './FindingsFilters';
import {
  listQuery,
  readViewState,
  writeViewState,
  type SortKey,
  type ViewState,
} from './view-state';

type ListQuery = NonNullable<paths['/api/v1/findings']['get']['parameters']['query']>;
const PAGE_SIZE = 100;
const ROW_HEIGHT = 34;
const features = tableFeatures({});
const helper = createColumnHelper<typeof features, Finding>();
const noRows: Finding[] = [];

export function FindingsPage() {
  const { t, locale } = useI18n();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const view = useMemo(() => readViewState(params), [params]);
  const setView = (next: ViewState) => setParams(writeViewState(next));
  const query = listQuery(view);
  const list = useInfiniteQuery({
    queryKey: ['findings', query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/findings', {
          params: { query: { ...query, cursor: pageParam, limit: PAGE_SIZE } as ListQuery },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? noRows, [list.data]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [active, setActive] = useState(0);
  const [bulkResult, setBulkResult] = useState<string>();
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const sortHeader = (key: SortKey, label: string) => {
    const current = view.sort === key;
    const next: ViewState = {
      ...view,
      sort: key,
      order: current && view.order === 'desc' ? 'asc' : 'desc',
    };
    return (
      <UnstyledButton
        onClick={() => setView(next)}
        fw={600}
        fz="sm"
        aria-label={`${label}${current ? (view.order === 'asc' ? ' ▲' : ' ▼') : ''}`}
      >
        {label} {current ? (view.order === 'asc' ? '▲' : '▼') : ''}
      </UnstyledButton>
    );
  };

  const columns = helper.columns([
    helper.display({
      id: 'select',
      header: () => (
        <Checkbox
          size="xs"
          aria-label={t('findings.selectAll')}
          checked={rows.length > 0 && selected.size === rows.length}
          onChange={(e) =>
            setSelected(e.currentTarget.checked ? new Set(rows.map((r) => r.id)) : new Set())
          }
        />
      ),
      cell: (info) => (
        <Checkbox
          size="xs"
          aria-label={`${t('findings.selectRow')} ${info.row.original.title}`}
          checked={selected.has(info.row.original.id)}
          onChange={() => toggle(info.row.original.id)}
        />
      ),
    }),
    helper.accessor('severity', {
      header: () => sortHeader('severity', t('findings.severity')),
      cell: (info) => <SeverityBadge severity={info.row.original.severity} />,
    }),
    helper.accessor('status', {
      header: () => sortHeader('status', t('findings.status')),
      cell: (info) => <StatusBadge status={info.row.original.status} />,
    }),
    helper.accessor('title', {
      header: () => t('findings.titleCol'),
      cell: (info) => (
        <Anchor component={Link} to={`/findings/${info.row.original.id}`} size="sm" tabIndex={-1}>
          {info.row.original.title}
        </Anchor>
      ),
    }),
    helper.accessor('project_name', { header: () => t('findings.project') }),
    helper.accessor('product_name', { header: () => t('findings.product') }),
    helper.accessor('scanner', { header: () => t('findings.scanner') }),
    helper.accessor('sla_due_at', {
      header: () => t('findings.deadline'),
      cell: (info) => formatDate(info.row.original.sla_due_at, locale),
    }),
    helper.accessor('last_seen_at', {
      header: () => sortHeader('last_seen_at', t('findings.lastSeen')),
      cell: (info) => formatDate(info.row.original.last_seen_at, locale),
    }),
  ]);
  const table = useTable({ features, columns, data: rows, getRowId: (row) => row.id });
  const tableRows = table.getRowModel().rows;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const lastItem = items[items.length - 1];
  useEffect(() => {
    if (
      lastItem &&
      lastItem.index >= tableRows.length - 20 &&
      list.hasNextPage &&
      !list.isFetchingNextPage
    ) {
      void list.fetchNextPage();
    }
  }, [lastItem, tableRows.length, list]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).tagName === 'INPUT') return;
    const move = (to: number) => {
      const clamped = Math.max(0, Math.min(tableRows.length - 1, to));
      setActive(clamped);
      virtualizer.scrollToIndex(clamped);
      event.preventDefault();
    };
    const row = rows[active];
    switch (event.key) {
      case 'ArrowDown':
      case 'j':
        move(active + 1);
        break;
      case 'ArrowUp':
      case 'k':
        move(active - 1);
        break;
      case 'Enter':
        if (row) void navigate(`/findings/${row.id}`);
        break;
      case 'x':
        if (row) toggle(row.id);
        break;
      default:
        break;
    }
  };

  const error = list.error instanceof ApiError ? list.error : undefined;
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (lastItem?.end ?? 0);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('findings.title')}
        </Title>
        <Switch
          label={t('findings.queryMode')}
          checked={view.mode === 'query'}
          onChange={(e) =>
            setView({ ...view, mode: e.currentTarget.checked ? 'query' : 'filters' })
          }
        />
      </Group>
      {view.mode === 'query' ? (
        <QueryBar key={view.q} view={view} error={error} onChange={setView} />
      ) : (
        <FilterBar view={view} onChange={setView} />
      )}
      {error?.code !== 'query_syntax_error' && <ErrorAlert error={list.error} />}
      {selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          onDone={(message) => {
            setSelected(new Set());
            setBulkResult(message);
          }}
        />
      )}
      {bulkResult && (
        <Alert
          color="green"
          data-testid="bulk-result"
          withCloseButton
          onClose={() => setBulkResult(undefined)}
        >
          {bulkResult}
        </Alert>
      )}
      <Group justify="space-between">
        <Text size="xs" c="gray.8" data-testid="findings-count">
          {t('findings.count', { n: rows.length })}
        </Text>
        <Text size="xs" c="gray.8">
          {t('findings.keyboard')}
        </Text>
      </Group>
      <div
        ref={scrollRef}
        tabIndex={0}
        role="region"
        aria-label={t('findings.title')}
        onKeyDown={onKeyDown}
        style={{ height: 'calc(100vh - 260px)', minHeight: 300, overflow: 'auto' }}
        data-testid="findings-grid"
      >
        <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13 }}>
          <thead
            style={{
              position: 'sticky',
              top: 0,
              background: 'var(--mantine-color-body)',
              zIndex: 1,
            }}
          >
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    style={{
                      textAlign: 'left',
                      padding: '4px 6px',
                      borderBottom: '1px solid var(--mantine-color-gray-4)',
                    }}
                  >
                    <table.FlexRender header={header} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {paddingTop > 0 && (
              <tr aria-hidden="true">
                <td style={{ height: paddingTop, padding: 0 }} colSpan={columns.length} />
              </tr>
            )}
            {items.map((item) => {
              const row = tableRows[item.index];
              if (!row) return null;
              return (
                <tr
                  key={row.id}
                  data-testid="finding-row"
                  data-active={item.index === active || undefined}
                  onClick={() => setActive(item.index)}
                  onDoubleClick={() => void navigate(`/findings/${row.id}`)}
                  style={{
                    height: ROW_HEIGHT,
                    background: item.index === active ? 'var(--mantine-color-indigo-0)' : undefined,
                    outline:
                      item.index === active ? '1px solid var(--mantine-color-indigo-6)' : undefined,
                  }}
                >
                  {row.getAllCells().map((cell) => (
                    <td
                      key={cell.id}
                      style={{
                        padding: '2px 6px',
                        borderBottom: '1px solid var(--mantine-color-gray-2)',
                      }}
                    >
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              );
            })}
            {paddingBottom > 0 && (
              <tr aria-hidden="true">
                <td style={{ height: paddingBottom, padding: 0 }} colSpan={columns.length} />
              </tr>
            )}
          </tbody>
        </table>
        {list.isSuccess && rows.length === 0 && (
          <Alert color="gray" m="sm">
            {t('findings.empty')}
          </Alert>
        )}
      </div>
    </Stack>
  );
}

import { ErrorAlert } from '@platform/web-ui';
import { Alert, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  Suspense,
  lazy,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
} from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, SEVERITIES, STATUSES, type Finding } from '../../api/client';
import { SeverityBadge, StatusBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { useFindingsList } from './api/findings';
import { locationText, ruleText } from './finding-place';
import { TITLE_MIN_WIDTH, gridColumnWidths, type GridColumnId } from './findings-grid-layout';
import { saveListPlace, savedListPlace } from './list-place';
import { LIST_PAGE_SIZE } from './list-prefetch';
import { useListShortcuts } from './use-list-shortcuts';
import { useRowsFirst } from './use-rows-first';
import { FindingsTotal } from './FindingsListBar';
import { GroupedView, ListTools, ViewControls } from './FindingsToolbar';
import {
  listQuery,
  readViewState,
  selectionQuery,
  writeViewState,
  type SortKey,
  type ViewState,
} from './view-state';

// The bulk bar (and its date picker) loads when something is selected.
const BulkBar = lazy(() => import('./BulkBar'));

const ROW_HEIGHT = 34;
const features = tableFeatures({});
const helper = createColumnHelper<typeof features, Finding>();
const noRows: Finding[] = [];
const ellipsis: CSSProperties = {
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
};

export function FindingsPage() {
  const { t, locale } = useI18n();
  const [params, setParams] = useSearchParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const view = useMemo(() => readViewState(params), [params]);
  // Stable between renders of one URL: the memoised controls above the grid re-render with the
  // view, not with rows or selection.
  const setView = useCallback((next: ViewState) => setParams(writeViewState(next)), [setParams]);
  const query = useMemo(() => listQuery(view), [view]);
  const selection = useMemo(() => selectionQuery(view), [view]);
  const list = useFindingsList(query, LIST_PAGE_SIZE);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? noRows, [list.data]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // The place kept when the analyst left this same view (back from a finding): its row and scroll.
  const [restore] = useState(() => {
    const place = savedListPlace();
    return place && place.search === search ? place : undefined;
  });
  const [active, setActive] = useState(restore?.active ?? 0);
  const [bulkResult, setBulkResult] = useState<string>();
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const widths = useMemo(
    () =>
      gridColumnWidths(
        SEVERITIES.map((s) => t(`severity.${s}`)),
        STATUSES.map((s) => t(`status.${s}`)),
        { severity: t('findings.severity'), status: t('findings.status') },
        locale,
      ),
    [t, locale],
  );
  const sortable: Partial<Record<GridColumnId, SortKey>> = {
    severity: 'severity',
    status: 'status',
    last_seen_at: 'last_seen_at',
  };
  const sortHeader = (key: SortKey, label: string) => {
    const current = view.sort === key;
    const next: ViewState = {
      ...view,
      sort: key,
      order: current && view.order === 'desc' ? 'asc' : 'desc',
    };
    return (
      <UnstyledButton onClick={() => setView(next)} fw={600} fz="sm">
        {label}
        {current ? <span aria-hidden="true">{view.order === 'asc' ? ' ▲' : ' ▼'}</span> : undefined}
      </UnstyledButton>
    );
  };

  const columns = helper.columns([
    helper.display({
      id: 'select',
      header: () => (
        <input
          type="checkbox"
          className="grid-check"
          aria-label={t('findings.selectAll')}
          checked={rows.length > 0 && selected.size === rows.length}
          onChange={(e) =>
            setSelected(e.currentTarget.checked ? new Set(rows.map((r) => r.id)) : new Set())
          }
        />
      ),
      cell: (info) => (
        <input
          type="checkbox"
          className="grid-check"
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
    helper.accessor('rule_id', {
      id: 'rule',
      header: () => t('findings.rule'),
      cell: (info) => {
        const rule = ruleText(info.row.original);
        const whole = rule.name ? `${rule.id} · ${rule.name}` : rule.id;
        return (
          <div style={ellipsis} title={whole} data-testid="finding-rule">
            <code>{rule.id}</code>
            {rule.name && <span> · {rule.name}</span>}
          </div>
        );
      },
    }),
    helper.accessor('title', {
      header: () => t('findings.titleCol'),
      cell: (info) => (
        <div style={ellipsis} title={info.row.original.title}>
          <Link className="grid-link" to={`/findings/${info.row.original.id}`} tabIndex={-1}>
            {info.row.original.title}
          </Link>
        </div>
      ),
    }),
    helper.display({
      id: 'location',
      header: () => t('finding.location'),
      cell: (info) => {
        const where = locationText(info.row.original);
        return (
          <div
            style={{ ...ellipsis, fontFamily: 'monospace' }}
            title={where}
            data-testid="finding-location"
          >
            {where}
          </div>
        );
      },
    }),
    helper.display({
      id: 'project',
      header: () => `${t('findings.project')} / ${t('findings.product')}`,
      cell: (info) => {
        const f = info.row.original;
        const both = `${f.project_name} / ${f.product_name}`;
        return (
          <div style={ellipsis} title={both}>
            {both}
          </div>
        );
      },
    }),
    helper.accessor('scanner', {
      header: () => t('findings.scanner'),
      cell: (info) => (
        <div style={ellipsis} title={info.row.original.scanner}>
          {info.row.original.scanner}
        </div>
      ),
    }),
    helper.display({
      id: 'ticket',
      header: () => t('findings.ticket'),
      cell: (info) => {
        const f = info.row.original;
        if (!f.ticket_key) return null;
        const status = f.ticket_status ? lookUp(t, 'ticket.status', f.ticket_status) : '';
        return (
          <div style={ellipsis} title={status ? `${f.ticket_key}: ${status}` : f.ticket_key}>
            <a
              className="grid-link"
              href={f.ticket_url && /^https?:\/\//i.test(f.ticket_url) ? f.ticket_url : undefined}
              target="_blank"
              rel="noopener noreferrer"
              onClick={(e) => e.stopPropagation()}
              data-testid="row-ticket"
            >
              {f.ticket_key}
            </a>
          </div>
        );
      },
    }),
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
  const headRef = useRef<HTMLTableSectionElement>(null);
  // The sticky header's height: the rows start below it, and a row scrolled to is placed below it.
  const [headHeight, setHeadHeight] = useState(32);
  useLayoutEffect(() => {
    const head = headRef.current;
    if (!head) return;
    const measure = () => setHeadHeight(head.offsetHeight || 32);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(head);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    scrollMargin: headHeight,
    scrollPaddingStart: headHeight,
  });
  const items = virtualizer.getVirtualItems();
  const lastItem = items[items.length - 1];
  const offset = useRef(restore?.offset ?? 0);
  const pendingRestore = useRef(restore !== undefined && restore.offset > 0);
  const totalSize = virtualizer.getTotalSize();
  useEffect(() => {
    const needMore =
      pendingRestore.current && totalSize + headHeight < offset.current + ROW_HEIGHT * 20;
    if (
      ((lastItem && lastItem.index >= tableRows.length - 20) || needMore) &&
      list.hasNextPage &&
      !list.isFetchingNextPage
    ) {
      void list.fetchNextPage();
    }
  }, [lastItem, tableRows.length, list, totalSize, headHeight]);
  // Back from a finding: the same scroll once enough rows are there (from the cache, or fetched).
  useLayoutEffect(() => {
    if (!pendingRestore.current || tableRows.length === 0) return;
    const reachable =
      totalSize + headHeight >= offset.current + (scrollRef.current?.clientHeight ?? 0);
    if (reachable || !list.hasNextPage) {
      pendingRestore.current = false;
      virtualizer.scrollToOffset(offset.current);
    }
  }, [tableRows.length, totalSize, headHeight, list.hasNextPage, virtualizer]);
  // What "Back to the list" returns to.
  const activeRef = useRef(active);
  useEffect(() => {
    activeRef.current = active;
  }, [active]);
  useEffect(
    () => () => saveListPlace({ search, offset: offset.current, active: activeRef.current }),
    [search],
  );

  useListShortcuts(scrollRef, {
    move: (by) => {
      const to = Math.max(0, Math.min(tableRows.length - 1, active + by));
      setActive(to);
      virtualizer.scrollToIndex(to);
    },
    open: () => {
      const row = rows[active];
      if (row) void navigate(`/findings/${row.id}`);
    },
    select: () => {
      const row = rows[active];
      if (row) toggle(row.id);
    },
  });

  const error = list.error instanceof ApiError ? list.error : undefined;
  const barsReady = useRowsFirst(!list.isPending);
  const paddingTop = (items[0]?.start ?? headHeight) - headHeight;
  const paddingBottom = totalSize - ((lastItem?.end ?? headHeight) - headHeight);
  const order = view.order === 'asc' ? 'ascending' : 'descending';
  return (
    <Stack gap="xs">
      <ViewControls view={view} error={error} ready={barsReady} onChange={setView} />
      {error?.code !== 'query_syntax_error' && <ErrorAlert error={list.error} />}
      {selected.size > 0 && (
        <Suspense fallback={null}>
          <BulkBar
            ids={[...selected]}
            onDone={(message) => {
              setSelected(new Set());
              setBulkResult(message);
            }}
          />
        </Suspense>
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
        <Group gap="sm">
          <FindingsTotal selection={selection} />
          <Text size="xs" c="gray.8" data-testid="findings-count">
            {t('findings.count', { n: rows.length })}
          </Text>
        </Group>
        <ListTools view={view} selection={selection} onChange={setView} />
      </Group>
      <GroupedView view={view} selection={selection} onChange={setView} />
      <div
        ref={scrollRef}
        tabIndex={0}
        role="region"
        aria-label={t('findings.title')}
        onScroll={(e) => {
          if (!pendingRestore.current) offset.current = e.currentTarget.scrollTop;
        }}
        style={{
          height: 'calc(100vh - 260px)',
          minHeight: 300,
          overflow: 'auto',
          display: view.groupBy ? 'none' : undefined,
        }}
        data-testid="findings-grid"
      >
        <table
          style={{
            width: '100%',
            minWidth: Object.values(widths).reduce((sum, w) => sum + w, 0) + TITLE_MIN_WIDTH,
            tableLayout: 'fixed',
            borderCollapse: 'collapse',
            fontSize: 13,
          }}
        >
          <colgroup>
            {table.getAllLeafColumns().map((column) => (
              <col
                key={column.id}
                style={
                  column.id === 'title'
                    ? undefined
                    : { width: widths[column.id as Exclude<GridColumnId, 'title'>] }
                }
              />
            ))}
          </colgroup>
          <thead
            ref={headRef}
            style={{
              position: 'sticky',
              top: 0,
              background: 'var(--mantine-color-body)',
              zIndex: 2,
              boxShadow: '0 1px 0 var(--mantine-color-gray-4)',
            }}
          >
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const key = sortable[header.column.id as GridColumnId];
                  return (
                    <th
                      key={header.id}
                      aria-sort={key ? (view.sort === key ? order : 'none') : undefined}
                      style={{ textAlign: 'left', padding: '4px 6px', verticalAlign: 'bottom' }}
                    >
                      <table.FlexRender header={header} />
                    </th>
                  );
                })}
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
                        overflow: 'hidden',
                        whiteSpace: 'nowrap',
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

import { Badge, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { ConflictsDialog, RejectDialog } from './BulkDialogs';
import { BulkResults } from './BulkResults';
import { RequestFilterBar } from './RequestFilterBar';
import { SelectAllMatching } from './SelectAllMatching';
import { readFilters, writeFilters } from './request-filters';
import { exportCsv, useRequestList, type CertificateRequest } from './requests-api';
import { useBulkActions } from './use-bulk-actions';

/**
 * The requests queue: filters in the URL, pages of 100 ("Load more"), CSV export of the
 * filtered view; approvers select pending requests and approve them (conflict check first,
 * then each row's outcome), administrators also reject them. A viewer sees no selection and
 * no action (the API refuses them anyway).
 */
export default function RequestsPage() {
  const { t, locale } = useI18n();
  const { user } = useSession();
  const [search, setSearch] = useSearchParams();
  const filters = readFilters(search);
  const list = useRequestList(filters);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // "Select all N matching": every matching pending id, newest first (select-all.ts).
  const [matching, setMatching] = useState<string[] | null>(null);
  const clearSelection = () => {
    setSelected(new Set());
    setMatching(null);
  };
  const bulk = useBulkActions(clearSelection);
  const [csvError, setCsvError] = useState<unknown>(null);
  const mayApprove = can(user, 'approve');
  const mayReject = can(user, 'admin');
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  // Everything seen in this view, for the results panel (rows leave the pending list).
  const [known] = useState(() => new Map<string, CertificateRequest>());
  for (const row of rows) known.set(row.id, row);
  // Selected ids in the table's order (newest first), as the person sees them: all matching
  // ones when chosen so (minus those unticked since), then loaded rows ticked besides.
  const chosen = useMemo(() => {
    const ids = matching ? matching.filter((id) => selected.has(id)) : [];
    const taken = new Set(ids);
    for (const r of rows) if (selected.has(r.id) && !taken.has(r.id)) ids.push(r.id);
    return ids;
  }, [matching, rows, selected]);

  const download = async () => {
    setCsvError(null);
    try {
      const blob = await exportCsv(filters, total);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = 'requests.csv';
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      setCsvError(error);
    }
  };

  const columns: Column<CertificateRequest>[] = [
    { key: 'serial', header: t('requests.serial'), cell: (r) => r.serial },
    { key: 'purpose', header: t('requests.purpose'), cell: (r) => t(`purpose.${r.purpose}`) },
    {
      key: 'status',
      header: t('requests.status'),
      cell: (r) => (
        <Badge variant="light" color="dark">
          {t(`status.${r.status}`)}
        </Badge>
      ),
    },
    {
      key: 'who',
      header: t('requests.requestedBy'),
      cell: (r) => r.user_identity ?? r.requested_by,
    },
    {
      key: 'created',
      header: t('requests.created'),
      cell: (r) => formatDate(r.created_at, locale),
    },
    {
      key: 'flags',
      header: t('requests.flags'),
      cell: (r) =>
        r.registered_during_block ? (
          <Badge color="#8a3a00" variant="filled">
            {t('requests.duringBlock')}
          </Badge>
        ) : null,
    },
  ];
  const step = bulk.step;
  const busy = step.kind === 'checking' || step.kind === 'running';
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('requests.title')}
      </Title>
      <RequestFilterBar
        key={search.toString()}
        filters={filters}
        onChange={(next) => {
          clearSelection();
          setSearch(writeFilters(next));
        }}
      />
      <Group gap="xs">
        <Text size="sm" data-testid="requests-total">
          {t('requests.total', { shown: rows.length, total })}
        </Text>
        <Button size="xs" variant="default" onClick={() => void download()}>
          {t('requests.exportCsv')}
        </Button>
        {(mayApprove || mayReject) && (
          <Text size="sm" data-testid="requests-selected">
            {t('requests.selected', { count: chosen.length })}
          </Text>
        )}
        {(mayApprove || mayReject) && (
          <SelectAllMatching
            filters={filters}
            total={total}
            selectedCount={chosen.length}
            disabled={busy}
            onSelect={(requests) => {
              for (const r of requests) known.set(r.id, r);
              setMatching(requests.map((r) => r.id));
              setSelected(new Set(requests.map((r) => r.id)));
            }}
            onClear={clearSelection}
          />
        )}
        {mayApprove && (
          <Button
            size="xs"
            disabled={chosen.length === 0 || busy}
            loading={busy}
            onClick={() => void bulk.startApproval(chosen)}
          >
            {t('requests.approve')}
          </Button>
        )}
        {mayReject && (
          <Button
            size="xs"
            color="red.9"
            variant="outline"
            disabled={chosen.length === 0 || busy}
            onClick={() => bulk.askReject(chosen)}
          >
            {t('requests.reject')}
          </Button>
        )}
      </Group>
      {step.kind === 'running' && (
        <Stack gap={4} data-testid="bulk-progress">
          <Progress
            value={(step.done / Math.max(1, step.total)) * 100}
            aria-label={t('requests.progress', { done: step.done, total: step.total })}
          />
          <Text size="xs">{t('requests.progress', { done: step.done, total: step.total })}</Text>
        </Stack>
      )}
      <ErrorAlert error={bulk.error ?? csvError ?? list.error} />
      {step.kind === 'done' && (
        <BulkResults rows={step.rows} requests={known} onClose={bulk.cancel} />
      )}
      {step.kind === 'conflicts' && (
        <ConflictsDialog
          conflicts={step.conflicts}
          onCancel={bulk.cancel}
          onApprove={() => void bulk.approve(step.ids)}
        />
      )}
      {step.kind === 'rejecting' && (
        <RejectDialog
          count={step.ids.length}
          onCancel={bulk.cancel}
          onReject={(reason) => void bulk.reject(step.ids, reason)}
        />
      )}
      {list.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('requests.caption')}
          columns={columns}
          rows={rows}
          rowKey={(r) => r.id}
          rowTestId="request-row"
          selection={
            mayApprove || mayReject
              ? {
                  selected,
                  onChange: setSelected,
                  selectable: (r) => r.status === 'pending',
                  rowName: (r) => `${r.serial} ${t(`purpose.${r.purpose}`)}`,
                }
              : undefined
          }
          hasMore={list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          onMore={() => void list.fetchNextPage()}
        />
      )}
    </Stack>
  );
}

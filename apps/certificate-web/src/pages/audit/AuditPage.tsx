import { Badge, Button, Code, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { pathsApiV1AuditGetParametersQueryActionValues as ACTIONS } from '../../api/schema.gen';
import { useI18n } from '../../i18n/i18n';
import {
  exportCsv,
  readFilters,
  useAuditLog,
  writeFilters,
  type AuditAction,
  type AuditFilters,
  type AuditRecord,
} from './audit-api';

function FilterBar({
  filters,
  onChange,
}: {
  filters: AuditFilters;
  onChange(next: AuditFilters): void;
}) {
  const { t } = useI18n();
  const [actor, setActor] = useState(filters.actor ?? '');
  const [since, setSince] = useState(filters.since ?? '');
  const [until, setUntil] = useState(filters.until ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({
      ...filters,
      actor: actor.trim() || undefined,
      since: since || undefined,
      until: until || undefined,
    });
  };
  return (
    <form onSubmit={submit} aria-label={t('audit.filters')}>
      <Group align="end" gap="xs">
        <Select
          label={t('audit.action')}
          w={300}
          searchable
          allowDeselect={false}
          value={filters.action ?? 'all'}
          data={[
            { value: 'all', label: t('common.all') },
            ...ACTIONS.map((a) => ({ value: a, label: a })),
          ]}
          onChange={(value) =>
            onChange({
              ...filters,
              action: value && value !== 'all' ? (value as AuditAction) : undefined,
            })
          }
        />
        <TextInput
          label={t('audit.actor')}
          value={actor}
          onChange={(e) => setActor(e.currentTarget.value)}
        />
        <TextInput
          label={t('audit.since')}
          type="date"
          value={since}
          onChange={(e) => setSince(e.currentTarget.value)}
        />
        <TextInput
          label={t('audit.until')}
          type="date"
          value={until}
          onChange={(e) => setUntil(e.currentTarget.value)}
        />
        <Button type="submit" variant="default">
          {t('common.apply')}
        </Button>
      </Group>
    </form>
  );
}

/** The audit log (every admin role): filters in the URL, pages of 100, CSV of the filtered log. */
export default function AuditPage() {
  const { t, locale } = useI18n();
  const [search, setSearch] = useSearchParams();
  const filters = readFilters(search);
  const log = useAuditLog(filters);
  const [csvError, setCsvError] = useState<unknown>(null);
  const rows = useMemo(() => log.data?.pages.flatMap((p) => p.items) ?? [], [log.data]);
  const total = log.data?.pages[0]?.total ?? 0;
  const download = async () => {
    setCsvError(null);
    try {
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await exportCsv(filters));
      link.download = 'audit.csv';
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      setCsvError(error);
    }
  };
  const columns: Column<AuditRecord>[] = [
    { key: 'at', header: t('audit.at'), cell: (r) => formatDate(r.at, locale) },
    { key: 'action', header: t('audit.action'), cell: (r) => <code>{r.action}</code> },
    {
      key: 'actor',
      header: t('audit.actor'),
      cell: (r) => (
        <>
          {r.actor}{' '}
          {r.actor_kind === 'service_account' && (
            <Badge variant="light" color="indigo.9">
              API
            </Badge>
          )}
        </>
      ),
    },
    { key: 'target', header: t('audit.target'), cell: (r) => r.target ?? '—' },
    {
      key: 'details',
      header: t('audit.details'),
      cell: (r) =>
        Object.keys(r.details).length ? (
          <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {JSON.stringify(r.details)}
          </Code>
        ) : null,
    },
  ];
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('audit.title')}
      </Title>
      <FilterBar
        key={search.toString()}
        filters={filters}
        onChange={(next) => setSearch(writeFilters(next))}
      />
      <Group gap="xs">
        <Text size="sm" data-testid="audit-total">
          {t('audit.total', { shown: rows.length, total })}
        </Text>
        <Button size="xs" variant="default" onClick={() => void download()}>
          {t('audit.exportCsv')}
        </Button>
      </Group>
      <ErrorAlert error={csvError ?? log.error} />
      {log.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('audit.caption')}
          columns={columns}
          rows={rows}
          rowKey={(r) => r.id}
          rowTestId="audit-row"
          hasMore={log.hasNextPage}
          loadingMore={log.isFetchingNextPage}
          onMore={() => void log.fetchNextPage()}
        />
      )}
    </Stack>
  );
}

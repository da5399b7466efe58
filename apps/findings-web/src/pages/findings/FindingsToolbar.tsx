/**
 * The findings list's controls above the grid: the view (filters or query, linked filters), the
 * grouping, export and key hints, and the grouped view. Memoised on the view: rows arriving or
 * a row selected re-render the grid, not these (their selects and popovers cost more to render
 * than the rows on screen).
 */
import { Group, SegmentedControl, Switch, Text, Title } from '@mantine/core';
import { memo } from 'react';
import type { ApiError } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { FilterBar, QueryBar, ViewBarPlaceholder } from './FindingsFilters';
import { ExportButton, LinkedFilters } from './FindingsListBar';
import { FindingGroups } from './FindingGroups';
import type { ViewState } from './view-state';

interface ViewProps {
  view: ViewState;
  onChange(next: ViewState): void;
}

/** Title, the filters/query switch, the bar of the mode, and the filters a link set. */
export const ViewControls = memo(function ViewControls({
  view,
  error,
  ready,
  onChange,
}: ViewProps & { error: ApiError | undefined; ready: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('findings.title')}
        </Title>
        <Switch
          label={t('findings.queryMode')}
          checked={view.mode === 'query'}
          onChange={(e) =>
            onChange({ ...view, mode: e.currentTarget.checked ? 'query' : 'filters' })
          }
        />
      </Group>
      {!ready ? (
        <ViewBarPlaceholder mode={view.mode} />
      ) : view.mode === 'query' ? (
        <QueryBar key={view.q} view={view} error={error} onChange={onChange} />
      ) : (
        <FilterBar view={view} onChange={onChange} />
      )}
      <LinkedFilters view={view} onChange={onChange} />
    </>
  );
});

/** Group by rule or file, CSV export of the selection, the keyboard hint. */
export const ListTools = memo(function ListTools({
  view,
  selection,
  onChange,
}: ViewProps & { selection: Record<string, string> }) {
  const { t } = useI18n();
  return (
    <Group gap="sm">
      <SegmentedControl
        size="xs"
        aria-label={t('findings.groupBy')}
        value={view.groupBy ?? 'none'}
        onChange={(v) =>
          onChange({ ...view, groupBy: v === 'rule' || v === 'file' ? v : undefined })
        }
        data={[
          { value: 'none', label: t('findings.groupNone') },
          { value: 'rule', label: t('findings.groupRule') },
          { value: 'file', label: t('findings.groupFile') },
        ]}
      />
      <ExportButton selection={selection} />
      <Text size="xs" c="gray.8">
        {t('findings.keyboard')}
      </Text>
    </Group>
  );
});

/** The selection grouped by rule or file; a group opens the list filtered to its key. */
export const GroupedView = memo(function GroupedView({
  view,
  selection,
  onChange,
}: ViewProps & { selection: Record<string, string> }) {
  const by = view.groupBy;
  if (!by) return null;
  const key = by === 'rule' ? 'rule_id' : 'file_path_exact';
  return (
    <FindingGroups
      selection={selection}
      by={by}
      onOpen={(value) =>
        onChange(
          view.mode === 'query'
            ? { ...view, groupBy: undefined, mode: 'filters', filters: { [key]: value } }
            : { ...view, groupBy: undefined, filters: { ...view.filters, [key]: value } },
        )
      }
    />
  );
});

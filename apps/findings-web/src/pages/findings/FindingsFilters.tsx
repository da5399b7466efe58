import { Button, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, SEVERITIES, STATUSES, api, call } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import type { ViewState } from './view-state';

/** The filter bar's field widths, shared with its placeholder (the layout wraps the same). */
const BAR_WIDTHS = {
  status: 220,
  statusGroup: 160,
  severity: 200,
  project: 180,
  product: 180,
  suppression: 170,
  scanner: 140,
  tags: 140,
  search: 180,
};

/**
 * What stands in for the bar of the mode while the rows draw first (use-rows-first.ts): the
 * same labels and boxes in plain HTML, so nothing moves when the real bar replaces it.
 */
export function ViewBarPlaceholder({ mode }: { mode: ViewState['mode'] }) {
  const { t } = useI18n();
  const field = (label: string, width: number | undefined) => (
    <div className="bar-field" style={width ? { width } : { flex: 1 }}>
      <div className="bar-label">{label}</div>
      <div className="bar-box" />
    </div>
  );
  if (mode === 'query') {
    return (
      <div className="bar-placeholder" aria-busy="true">
        {field(t('findings.query'), undefined)}
        <div className="bar-button">{t('findings.search')}</div>
        {field(t('findings.suppressed'), BAR_WIDTHS.suppression)}
      </div>
    );
  }
  return (
    <div className="bar-placeholder" aria-busy="true">
      {field(t('findings.status'), BAR_WIDTHS.status)}
      {field(t('findings.statusGroup'), BAR_WIDTHS.statusGroup)}
      {field(t('findings.severity'), BAR_WIDTHS.severity)}
      {field(t('findings.project'), BAR_WIDTHS.project)}
      {field(t('findings.product'), BAR_WIDTHS.product)}
      {field(t('findings.suppressed'), BAR_WIDTHS.suppression)}
      <div className="bar-placeholder">
        {field(t('findings.scanner'), BAR_WIDTHS.scanner)}
        {field(t('findings.tags'), BAR_WIDTHS.tags)}
        {field(t('findings.search'), BAR_WIDTHS.search)}
        <div className="bar-button">{t('common.apply')}</div>
      </div>
    </div>
  );
}

/** Suppressed findings: hidden (default), included, or only them — in both modes. */
function SuppressionSelect({
  view,
  onChange,
}: {
  view: ViewState;
  onChange(view: ViewState): void;
}) {
  const { t } = useI18n();
  return (
    <Select
      w={BAR_WIDTHS.suppression}
      size="xs"
      label={t('findings.suppressed')}
      data={[
        { value: 'exclude', label: t('findings.suppressedHide') },
        { value: 'include', label: t('findings.suppressedInclude') },
        { value: 'only', label: t('findings.suppressedOnly') },
      ]}
      value={view.filters.suppression ?? 'exclude'}
      onChange={(v) =>
        onChange({
          ...view,
          filters: { ...view.filters, suppression: v === 'exclude' ? undefined : (v ?? undefined) },
        })
      }
      allowDeselect={false}
    />
  );
}

function useProjects() {
  return useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
    staleTime: 60_000,
  });
}

/**
 * The list's filters (state, group, severity, scanner, project, product, suppressed, tags), bound
 * to the view.
 */
export function FilterBar({
  view,
  onChange,
}: {
  view: ViewState;
  onChange(view: ViewState): void;
}) {
  const { t } = useI18n();
  const projects = useProjects();
  const projectId = view.filters.project_id;
  const products = useQuery({
    queryKey: ['products', projectId],
    enabled: projectId !== undefined && !projectId.includes(','),
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/products', { params: { path: { id: projectId ?? '' } } }),
      ),
  });
  const set = (key: keyof ViewState['filters'], value: string | undefined) =>
    onChange({ ...view, filters: { ...view.filters, [key]: value || undefined } });
  const [text, setText] = useState({
    scanner: view.filters.scanner ?? '',
    tags: view.filters.tags ?? '',
    search: view.filters.search ?? '',
  });
  const applyText = () =>
    onChange({
      ...view,
      filters: {
        ...view.filters,
        scanner: text.scanner || undefined,
        tags: text.tags || undefined,
        search: text.search || undefined,
      },
    });
  return (
    <Group align="end" gap="xs" wrap="wrap">
      <MultiSelect
        w={BAR_WIDTHS.status}
        size="xs"
        label={t('findings.status')}
        data={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        value={view.filters.status ? view.filters.status.split(',') : []}
        onChange={(v) => set('status', v.join(','))}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <Select
        w={BAR_WIDTHS.statusGroup}
        size="xs"
        label={t('findings.statusGroup')}
        data={[
          { value: 'attention', label: t('group.attention') },
          { value: 'open', label: t('group.open') },
          { value: 'closed', label: t('group.closed') },
        ]}
        value={view.filters.status_group ?? null}
        onChange={(v) => set('status_group', v ?? undefined)}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <MultiSelect
        w={BAR_WIDTHS.severity}
        size="xs"
        label={t('findings.severity')}
        data={SEVERITIES}
        value={view.filters.severity ? view.filters.severity.split(',') : []}
        onChange={(v) => set('severity', v.join(','))}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <Select
        w={BAR_WIDTHS.project}
        size="xs"
        label={t('findings.project')}
        data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        value={projectId ?? null}
        onChange={(v) =>
          onChange({
            ...view,
            filters: { ...view.filters, project_id: v ?? undefined, product_id: undefined },
          })
        }
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
        searchable
      />
      <Select
        w={BAR_WIDTHS.product}
        size="xs"
        label={t('findings.product')}
        data={(products.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        value={view.filters.product_id ?? null}
        onChange={(v) => set('product_id', v ?? undefined)}
        disabled={!products.data}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <SuppressionSelect view={view} onChange={onChange} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          applyText();
        }}
      >
        <Group align="end" gap="xs">
          <TextInput
            w={BAR_WIDTHS.scanner}
            size="xs"
            label={t('findings.scanner')}
            value={text.scanner}
            onChange={(e) => setText({ ...text, scanner: e.currentTarget.value })}
          />
          <TextInput
            w={BAR_WIDTHS.tags}
            size="xs"
            label={t('findings.tags')}
            value={text.tags}
            onChange={(e) => setText({ ...text, tags: e.currentTarget.value })}
          />
          <TextInput
            w={BAR_WIDTHS.search}
            size="xs"
            label={t('findings.search')}
            value={text.search}
            onChange={(e) => setText({ ...text, search: e.currentTarget.value })}
          />
          <Button size="xs" type="submit">
            {t('common.apply')}
          </Button>
        </Group>
      </form>
    </Group>
  );
}

/**
 * Query mode: the `q` expression, run on submit; a syntax error from the API is shown inline
 * under the field with a caret at its position (the list is not run).
 */
export function QueryBar({
  view,
  error,
  onChange,
}: {
  view: ViewState;
  error: ApiError | undefined;
  onChange(view: ViewState): void;
}) {
  const { t } = useI18n();
  // Remounted (key) when the URL's q changes: the input starts from it.
  const [text, setText] = useState(view.q);
  const syntax = error?.code === 'query_syntax_error' ? error : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...view, q: text });
      }}
    >
      <Group align="start" gap="xs">
        <TextInput
          flex={1}
          size="xs"
          label={t('findings.query')}
          placeholder={t('findings.queryHint')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={
            syntax ? (
              <span data-testid="query-syntax-error">
                {syntax.message}
                {syntax.position !== undefined && (
                  <code style={{ display: 'block', whiteSpace: 'pre' }}>
                    {view.q}
                    {'\n'}
                    {' '.repeat(Math.max(0, syntax.position - 1))}^
                  </code>
                )}
              </span>
            ) : undefined
          }
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Button size="xs" type="submit" mt={22}>
          {t('findings.search')}
        </Button>
        <SuppressionSelect view={{ ...view, q: text }} onChange={onChange} />
      </Group>
    </form>
  );
}

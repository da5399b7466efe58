import { Button, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, SEVERITIES, STATUSES, api, call } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import type { ViewState } from './view-state';

function useProjects() {
  return useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
    staleTime: 60_000,
  });
}

/** The list's filters (state, group, severity, scanner, project, product, tags), bound to the view. */
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
        w={220}
        size="xs"
        label={t('findings.status')}
        data={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        value={view.filters.status ? view.filters.status.split(',') : []}
        onChange={(v) => set('status', v.join(','))}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <Select
        w={160}
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
        w={200}
        size="xs"
        label={t('findings.severity')}
        data={SEVERITIES}
        value={view.filters.severity ? view.filters.severity.split(',') : []}
        onChange={(v) => set('severity', v.join(','))}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <Select
        w={180}
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
        w={180}
        size="xs"
        label={t('findings.product')}
        data={(products.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        value={view.filters.product_id ?? null}
        onChange={(v) => set('product_id', v ?? undefined)}
        disabled={!products.data}
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          applyText();
        }}
      >
        <Group align="end" gap="xs">
          <TextInput
            w={140}
            size="xs"
            label={t('findings.scanner')}
            value={text.scanner}
            onChange={(e) => setText({ ...text, scanner: e.currentTarget.value })}
          />
          <TextInput
            w={140}
            size="xs"
            label={t('findings.tags')}
            value={text.tags}
            onChange={(e) => setText({ ...text, tags: e.currentTarget.value })}
          />
          <TextInput
            w={180}
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
      </Group>
    </form>
  );
}

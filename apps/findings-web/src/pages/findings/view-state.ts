/**
 * The findings view lives in the URL (a link reproduces it): filters, the query-mode text,
 * the sort. Only these parameters are read; anything else in the URL is ignored.
 */
export const FILTER_KEYS = [
  'status',
  'status_group',
  'severity',
  'scanner',
  'project_id',
  'product_id',
  'tags',
  'search',
  // Suppressed findings (docs/findings-service/suppression.md): absent = hidden (`exclude`).
  'suppression',
  // Set by links, not by the filter bar: a group (by rule or file), a report's findings.
  'rule_id',
  'file_path_exact',
  'last_report_id',
  'first_report_id',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export const SORT_KEYS = ['severity', 'created_at', 'last_seen_at', 'status', 'id'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** The optional grouping of the list: by rule or by file, with counts. */
export type GroupBy = 'rule' | 'file';

export interface ViewState {
  mode: 'filters' | 'query';
  /** Groups instead of rows (`group_by` in the URL); absent: the rows. */
  groupBy?: GroupBy;
  q: string;
  filters: Partial<Record<FilterKey, string>>;
  sort: SortKey;
  order: 'asc' | 'desc';
}

export function readViewState(params: URLSearchParams): ViewState {
  const filters: Partial<Record<FilterKey, string>> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const sort = params.get('sort');
  return {
    mode: params.get('mode') === 'query' ? 'query' : 'filters',
    q: params.get('q') ?? '',
    filters,
    sort: (SORT_KEYS as readonly string[]).includes(sort ?? '') ? (sort as SortKey) : 'created_at',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    ...(params.get('group_by') === 'rule' || params.get('group_by') === 'file'
      ? { groupBy: params.get('group_by') as GroupBy }
      : {}),
  };
}

export function writeViewState(view: ViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (view.mode === 'query') {
    params.set('mode', 'query');
    if (view.q) params.set('q', view.q);
    if (view.filters.suppression) params.set('suppression', view.filters.suppression);
  } else {
    for (const key of FILTER_KEYS) {
      const value = view.filters[key];
      if (value) params.set(key, value);
    }
  }
  if (view.sort !== 'created_at') params.set('sort', view.sort);
  if (view.order !== 'desc') params.set('order', view.order);
  if (view.groupBy) params.set('group_by', view.groupBy);
  return params;
}

/**
 * The list request's query parameters for a view (query mode sends `q` and the suppressed
 * findings' choice, which the query language has no term for).
 */
export function listQuery(view: ViewState): Record<string, string> {
  const query: Record<string, string> = { sort: view.sort, order: view.order };
  if (view.mode === 'query') {
    if (view.q.trim()) query.q = view.q;
    if (view.filters.suppression) query.suppression = view.filters.suppression;
  } else {
    Object.assign(query, view.filters);
  }
  return query;
}

/** The selection alone (filters or `q`), for the total, the groups and the export. */
export function selectionQuery(view: ViewState): Record<string, string> {
  const { sort: _sort, order: _order, ...selection } = listQuery(view);
  return selection;
}

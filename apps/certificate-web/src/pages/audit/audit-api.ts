/**
 * The audit log's filters, kept in the URL: `action`, `actor` (exact: an e-mail, `API`,
 * `device:<serial>`, `system`), `since`, `until` (days in the browser's time zone; `until`
 * inclusive). Pages of 100 ("Load more"); the CSV route returns the whole filtered log.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, authFetch, call, toApiError, type Schemas } from '../../api/client';
import type { paths } from '../../api/schema.gen';

export type AuditRecord = Schemas['AuditRecordDto'];
type Query = NonNullable<paths['/api/v1/audit']['get']['parameters']['query']>;
export type AuditAction = NonNullable<Query['action']>;

export interface AuditFilters {
  action?: AuditAction;
  actor?: string;
  since?: string;
  until?: string;
}

export const PAGE_SIZE = 100;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const NAMES = ['action', 'actor', 'since', 'until'] as const;

export function readFilters(search: URLSearchParams): AuditFilters {
  const day = (name: string) => {
    const value = search.get(name) ?? '';
    return DAY.test(value) ? value : undefined;
  };
  return {
    action: (search.get('action') as AuditAction | null) ?? undefined,
    actor: search.get('actor')?.trim() || undefined,
    since: day('since'),
    until: day('until'),
  };
}

export function writeFilters(filters: AuditFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of NAMES) {
    const value = filters[name];
    if (value) out.set(name, value);
  }
  return out;
}

function dayStart(day: string, plusDays = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, (d ?? 1) + plusDays).toISOString();
}

export function toQuery(filters: AuditFilters): Query {
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.since ? { since: dayStart(filters.since) } : {}),
    ...(filters.until ? { until: dayStart(filters.until, 1) } : {}),
  };
}

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['audit', filters],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/audit', {
          params: { query: { ...toQuery(filters), page: pageParam, limit: PAGE_SIZE } },
        }),
      ),
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });
}

/** GET /api/v1/audit.csv with the filters: the whole filtered log (the route's cap, 100 000 rows). */
export async function exportCsv(filters: AuditFilters): Promise<Blob> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(toQuery(filters))) query.set(name, String(value));
  const response = await authFetch(
    new Request(`${window.location.origin}/api/v1/audit.csv?${query.toString()}`),
  );
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
  return new Blob([await response.text()], { type: 'text/csv;charset=utf-8' });
}

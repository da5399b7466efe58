/** The audit log's queries: pages of 100 ("Load more"); the CSV route returns the whole filtered log. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, authFetch, call, toApiError, type Schemas } from '../../api/client';
import { toQuery, type AuditFilters } from './audit-filters';

export type AuditRecord = Schemas['AuditRecordDto'];
export type { AuditAction, AuditFilters } from './audit-filters';
export { readFilters, writeFilters } from './audit-filters';

/** Records per page (the route allows 500). */
export const PAGE_SIZE = 100;

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

import { useInfiniteQuery } from '@tanstack/react-query';
import { api, ApiError, authFetch, call, toApiError, type Schemas } from '../../api/client';
import { bulkSizes } from './bulk-sizes';
import { inChunks } from './chunks';
import { toQuery, type RequestFilters } from './request-filters';

export type CertificateRequest = Schemas['CertificateRequestDto'];
export type ApprovalRow = Schemas['ApprovalRowDto'];
export type RejectionRow = Schemas['RejectionRowDto'];
export type SerialConflict = Schemas['SerialConflictDto'];
/** One row's outcome of a bulk action, whichever it was. */
export type BulkRow = ApprovalRow | RejectionRow;

/** Rows per page of the queue (the API allows 500). */
export const PAGE_SIZE = 100;

export function useRequestList(filters: RequestFilters) {
  return useInfiniteQuery({
    queryKey: ['requests', filters],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/requests', {
          params: { query: { ...toQuery(filters), page: pageParam, limit: PAGE_SIZE } },
        }),
      ),
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });
}

/** The serial conflicts among `ids` (several pending requests, or an active certificate). */
export async function checkConflicts(ids: string[]): Promise<SerialConflict[]> {
  const answer = await call(
    api.POST('/api/v1/requests/check-conflicts', { body: { request_ids: ids } }),
  );
  return answer.conflicts;
}

/**
 * Approves `ids` in chunks. A bulk call answers 200 with a row per request; a call of one
 * request refused by the license answers 402 with the code: that becomes the row's error.
 */
export function approveRequests(
  ids: string[],
  onProgress: (done: number, total: number) => void,
): Promise<ApprovalRow[]> {
  return inChunks(
    ids,
    bulkSizes().chunk,
    async (chunk) => {
      try {
        const answer = await call(
          api.POST('/api/v1/requests/approve', { body: { request_ids: chunk } }),
        );
        return answer.results;
      } catch (error) {
        if (chunk.length === 1 && error instanceof ApiError && error.status === 402) {
          return [{ request_id: chunk[0] ?? '', status: 'error' as const, error: error.code }];
        }
        throw error;
      }
    },
    onProgress,
  );
}

export function rejectRequests(
  ids: string[],
  reason: string,
  onProgress: (done: number, total: number) => void,
): Promise<RejectionRow[]> {
  return inChunks(
    ids,
    bulkSizes().chunk,
    async (chunk) =>
      (
        await call(
          api.POST('/api/v1/requests/reject', {
            body: { request_ids: chunk, ...(reason.trim() ? { reason: reason.trim() } : {}) },
          }),
        )
      ).results,
    onProgress,
  );
}

/**
 * The filtered requests as one CSV file: the CSV route pages like the list (at most 500 rows a
 * call), so the pages are fetched in turn and joined under the first page's header line.
 */
export async function exportCsv(filters: RequestFilters, total: number): Promise<Blob> {
  const parts: string[] = [];
  const pages = Math.max(1, Math.ceil(total / 500));
  for (let page = 1; page <= pages; page++) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(toQuery(filters))) query.set(name, String(value));
    query.set('page', String(page));
    query.set('limit', '500');
    const response = await authFetch(
      new Request(`${window.location.origin}/api/v1/requests.csv?${query.toString()}`),
    );
    if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
    const text = await response.text();
    // Later pages without their header line (a header has no line break; a value may).
    const body = page === 1 ? text : text.slice(text.indexOf('\n') + 1);
    parts.push(body.endsWith('\n') || body === '' ? body : `${body}\r\n`);
  }
  return new Blob(parts, { type: 'text/csv;charset=utf-8' });
}

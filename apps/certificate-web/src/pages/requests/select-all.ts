import { api, call } from '../../api/client';
import type { CertificateRequest } from './requests-api';
import { bulkSizes } from './bulk-sizes';
import { toQuery, type RequestFilters } from './request-filters';

/**
 * Every pending request matching `filters` (whatever their status filter says: only pending
 * requests can be approved or rejected), read from the list route page by page at its maximum
 * page size, newest first. The spec has no route of ids only; the list route pages by offset,
 * so a request created meanwhile may shift a row into the next page: duplicates are dropped,
 * and the count of the first page decides how many pages are read. `onProgress` hears the
 * rows read so far and the count.
 */
export async function fetchAllMatching(
  filters: RequestFilters,
  onProgress: (read: number, total: number) => void,
  pageSize = bulkSizes().page,
): Promise<CertificateRequest[]> {
  const query = { ...toQuery(filters), status: 'pending' as const };
  const seen = new Map<string, CertificateRequest>();
  let total = 0;
  for (let page = 1; page === 1 || (page - 1) * pageSize < total; page++) {
    const answer = await call(
      api.GET('/api/v1/requests', { params: { query: { ...query, page, limit: pageSize } } }),
    );
    if (page === 1) total = answer.total;
    for (const item of answer.items) if (item.status === 'pending') seen.set(item.id, item);
    onProgress(seen.size, total);
    if (answer.items.length < pageSize) break;
  }
  return [...seen.values()];
}

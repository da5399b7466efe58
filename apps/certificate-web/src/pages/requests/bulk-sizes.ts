/** Rows per call when collecting every matching request (the list route's maximum). */
export const SELECT_PAGE_SIZE = 500;
/** Ids per approve/reject call: progress between calls (the API allows 5 000). */
export const CHUNK_SIZE = 500;

const KEY = 'certificate-web.bulk-sizes';

/**
 * The page size of "select all matching" and the chunk size of bulk approve/reject. The browser
 * tests lower them (localStorage `certificate-web.bulk-sizes` = `{"page":50,"chunk":50}`, each
 * 1..500) to see paging and progress with a hundred rows instead of thousands; anything else
 * there is ignored.
 */
export function bulkSizes(): { page: number; chunk: number } {
  let stored: { page?: unknown; chunk?: unknown } = {};
  try {
    stored = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}') as typeof stored;
  } catch {
    stored = {};
  }
  const size = (value: unknown, fallback: number) =>
    Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 500
      ? (value as number)
      : fallback;
  return { page: size(stored.page, SELECT_PAGE_SIZE), chunk: size(stored.chunk, CHUNK_SIZE) };
}

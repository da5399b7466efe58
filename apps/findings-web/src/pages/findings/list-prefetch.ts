import type { QueryClient } from '@tanstack/react-query';
import { findingsListOptions } from './api/findings';
import { listQuery, readViewState } from './view-state';

/** Rows per page of the findings grid. */
export const LIST_PAGE_SIZE = 100;

/**
 * A full load of `/findings`: the grid's first page is asked for as soon as the session is
 * back, under the same query key the page uses, so the request runs while the shell renders
 * (the first render takes longer than the request) instead of after it.
 */
export function prefetchFindingsList(
  client: QueryClient,
  at: { pathname: string; search: string },
): void {
  if (at.pathname !== '/findings') return;
  const view = readViewState(new URLSearchParams(at.search));
  void client.prefetchInfiniteQuery(findingsListOptions(listQuery(view), LIST_PAGE_SIZE));
}

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, authFetch, call, toApiError } from '../../../api/client';
import type { paths } from '../../../api/schema.gen';
import type { GroupBy } from '../view-state';

type CountQuery = NonNullable<paths['/api/v1/findings/count']['get']['parameters']['query']>;
type GroupsQuery = NonNullable<paths['/api/v1/findings/groups']['get']['parameters']['query']>;

/** The total of a selection (exact up to 10 000, else an estimate), asked once per view. */
export function useFindingsCount(selection: Record<string, string>) {
  return useQuery({
    queryKey: ['findings', 'count', selection],
    queryFn: () =>
      call(api.GET('/api/v1/findings/count', { params: { query: selection as CountQuery } })),
    staleTime: 30_000,
  });
}

/** The selection folded by rule or file, with counts, page by page. */
export function useFindingGroups(selection: Record<string, string>, by: GroupBy | undefined) {
  return useInfiniteQuery({
    queryKey: ['findings', 'groups', by, selection],
    enabled: by !== undefined,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/findings/groups', {
          params: {
            query: { ...selection, by: by ?? 'rule', limit: 100, cursor: pageParam } as GroupsQuery,
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/**
 * The selection as a CSV file (the API streams it; the request carries the user's token, so it
 * is fetched, not linked), saved under the name the server gives.
 */
export async function downloadFindingsCsv(selection: Record<string, string>): Promise<void> {
  const url = new URL('/api/v1/findings/export.csv', globalThis.location.origin);
  for (const [name, value] of Object.entries(selection)) url.searchParams.set(name, value);
  const response = await authFetch(new Request(url, { headers: { Accept: 'text/csv' } }));
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw toApiError(response, body);
  }
  const blob = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ??
    'findings.csv';
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

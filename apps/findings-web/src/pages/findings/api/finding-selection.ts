import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, call } from '../../../api/client';
import type { paths } from '../../../api/schema.gen';
import type { GroupBy } from '../view-state';

type CountQuery = NonNullable<paths['/api/v1/findings/count']['get']['parameters']['query']>;
type GroupsQuery = NonNullable<paths['/api/v1/findings/groups']['get']['parameters']['query']>;
type ExportQuery = NonNullable<
  paths['/api/v1/findings/export-links']['post']['parameters']['query']
>;

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
 * The selection as a CSV file, downloaded by the browser itself: the API first checks the
 * selection and answers a single-use link (60 s), which an anchor then opens, so the file streams
 * to disk with the browser's own progress and nothing is held in the page's memory. A refused
 * selection is an error here, never a saved JSON file.
 */
export async function downloadFindingsCsv(selection: Record<string, string>): Promise<void> {
  const link = await call(
    api.POST('/api/v1/findings/export-links', { params: { query: selection as ExportQuery } }),
  );
  const anchor = document.createElement('a');
  anchor.href = new URL(link.url, globalThis.location.origin).toString();
  anchor.download = 'findings.csv';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api, call, type Finding, type ManualStatus } from '../../../api/client';
import type { paths } from '../../../api/schema.gen';
import { findingQueryKeys } from './finding-query-keys';

type ListQuery = NonNullable<paths['/api/v1/findings']['get']['parameters']['query']>;
export type StatusChange = NonNullable<
  paths['/api/v1/findings/{id}']['patch']['requestBody']
>['content']['application/json'];

/** The findings of a view, page by page (keyset cursor): the list query's options. */
export function findingsListOptions(query: Record<string, string>, pageSize: number) {
  return infiniteQueryOptions({
    queryKey: findingQueryKeys.list(query),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/findings', {
          params: { query: { ...query, cursor: pageParam, limit: pageSize } as ListQuery },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** The findings of a view, page by page (keyset cursor) as the grid scrolls. */
export function useFindingsList(query: Record<string, string>, pageSize: number) {
  return useInfiniteQuery(findingsListOptions(query, pageSize));
}

/** One finding. */
export function useFinding(id: string) {
  return useQuery({
    queryKey: findingQueryKeys.one(id),
    queryFn: () => call(api.GET('/api/v1/findings/{id}', { params: { path: { id } } })),
  });
}

/** A finding's action log, oldest first. */
export function useFindingActions(id: string) {
  return useQuery({
    queryKey: findingQueryKeys.actions(id),
    queryFn: () =>
      call(
        api.GET('/api/v1/findings/{id}/actions', {
          params: { path: { id }, query: { limit: 200 } },
        }),
      ),
  });
}

/** The finding's product (its repository address links locations to files). */
export function useProduct(id: string) {
  return useQuery({
    queryKey: findingQueryKeys.product(id),
    enabled: id !== '',
    queryFn: () => call(api.GET('/api/v1/products/{id}', { params: { path: { id } } })),
    staleTime: 60_000,
  });
}

/** After a change of one finding: its new state on screen, its log and the lists refetched. */
export function useFindingChanged(id: string): (updated: Finding) => void {
  const queryClient = useQueryClient();
  return (updated) => {
    queryClient.setQueryData(findingQueryKeys.one(id), updated);
    void queryClient.invalidateQueries({ queryKey: findingQueryKeys.actions(id) });
    void queryClient.invalidateQueries({ queryKey: findingQueryKeys.lists() });
  };
}

/** PATCH of a finding (status and its fields, assignment, comment). */
export function useUpdateFinding(id: string, onDone?: (updated: Finding) => void) {
  const changed = useFindingChanged(id);
  return useMutation({
    mutationFn: (body: StatusChange) =>
      call(api.PATCH('/api/v1/findings/{id}', { params: { path: { id } }, body })),
    onSuccess: (updated) => {
      changed(updated);
      onDone?.(updated);
    },
  });
}

/** Adds or removes manual tags of one finding. */
export function useFindingTags(id: string) {
  const changed = useFindingChanged(id);
  const add = useMutation({
    mutationFn: (tags: string[]) =>
      call(api.POST('/api/v1/findings/{id}/tags', { params: { path: { id } }, body: { tags } })),
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: (tags: string[]) =>
      call(api.DELETE('/api/v1/findings/{id}/tags', { params: { path: { id } }, body: { tags } })),
    onSuccess: changed,
  });
  return { add, remove };
}

/** Bulk tags and bulk status of a selection; `onDone` gets the counts. */
export function useBulkChanges(
  ids: string[],
  onDone: (result: { matched: number; changed: number }) => void,
) {
  const queryClient = useQueryClient();
  const done = (r: { matched: number; changed: number }) => {
    void queryClient.invalidateQueries({ queryKey: findingQueryKeys.lists() });
    onDone(r);
  };
  const tags = useMutation({
    mutationFn: (change: { add: string[]; remove: string[] }) =>
      call(api.POST('/api/v1/findings/bulk-tags', { body: { finding_ids: ids, ...change } })),
    onSuccess: done,
  });
  const status = useMutation({
    mutationFn: (change: {
      status: ManualStatus;
      risk_accepted_until?: string;
      justification?: string;
    }) => call(api.POST('/api/v1/findings/bulk-status', { body: { finding_ids: ids, ...change } })),
    onSuccess: done,
  });
  return { tags, status };
}

/** The members of the finding's project (assignment). */
export function useProjectMembers(projectId: string) {
  return useQuery({
    queryKey: findingQueryKeys.members(projectId),
    queryFn: () =>
      call(api.GET('/api/v1/projects/{id}/members', { params: { path: { id: projectId } } })),
  });
}

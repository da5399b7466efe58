import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type ManualStatus } from '../../api/client';
import type { paths } from '../../api/schema.gen';
import { findingQueryKeys } from '../findings/api/finding-query-keys';

export type GroupAxis = 'package' | 'host' | 'cve' | 'rule';
export type RollupAxis = Exclude<GroupAxis, 'rule'>;
export const ROLLUP_AXES: readonly RollupAxis[] = ['package', 'host', 'cve'];
export type RollupSort = 'total' | 'key' | 'critical' | 'high' | 'medium' | 'low' | 'info';

type RollupQuery = NonNullable<
  paths['/api/v1/findings/inventory-rollup']['get']['parameters']['query']
>;
type RollupMembersQuery = NonNullable<
  paths['/api/v1/findings/inventory-rollup/members']['get']['parameters']['query']
>;
type GroupMembersQuery = NonNullable<
  paths['/api/v1/findings/{id}/group-axes/members']['get']['parameters']['query']
>;
export type RollupBulkBody =
  paths['/api/v1/findings/inventory-rollup/bulk-status']['post']['requestBody']['content']['application/json'];

const PAGE = 50;

/** The axes on which a finding has neighbours, with counts. */
export function useGroupAxes(findingId: string) {
  return useQuery({
    queryKey: ['findings', 'group-axes', findingId],
    queryFn: () =>
      call(api.GET('/api/v1/findings/{id}/group-axes', { params: { path: { id: findingId } } })),
  });
}

/** The members of a finding's group along an axis, page by page. */
export function useGroupMembers(findingId: string, axis: GroupAxis | undefined) {
  return useInfiniteQuery({
    queryKey: ['findings', 'group-members', findingId, axis],
    enabled: axis !== undefined,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/findings/{id}/group-axes/members', {
          params: {
            path: { id: findingId },
            query: { axis: axis ?? 'package', limit: 20, cursor: pageParam } as GroupMembersQuery,
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** A state change for the whole group (the bulk status route with `group`). */
export function useGroupStatus(
  findingId: string,
  onDone: (r: { matched: number; changed: number }) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: {
      axis: GroupAxis;
      status: Exclude<ManualStatus, 'waiting'>;
      risk_accepted_until?: string;
      justification?: string;
    }) => {
      const { axis, ...rest } = change;
      return call(
        api.POST('/api/v1/findings/bulk-status', {
          body: { group: { finding_id: findingId, axis }, ...rest },
        }),
      );
    },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: findingQueryKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: ['finding'] });
      void queryClient.invalidateQueries({ queryKey: ['finding-actions'] });
      onDone(r);
    },
  });
}

/** The roll-up rows of a selection by axis, sorted, page by page. */
export function useRollup(
  axis: RollupAxis,
  selection: Record<string, string>,
  sort: RollupSort,
  order: 'asc' | 'desc',
) {
  return useInfiniteQuery({
    queryKey: ['findings', 'rollup', axis, sort, order, selection],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/findings/inventory-rollup', {
          params: {
            query: {
              ...selection,
              axis,
              sort,
              order,
              limit: PAGE,
              cursor: pageParam,
            } as RollupQuery,
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** The findings of one roll-up row (the same selection), page by page. */
export function useRollupMembers(axis: RollupAxis, key: string, selection: Record<string, string>) {
  return useInfiniteQuery({
    queryKey: ['findings', 'rollup-members', axis, key, selection],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/findings/inventory-rollup/members', {
          params: {
            query: { ...selection, axis, key, limit: 20, cursor: pageParam } as RollupMembersQuery,
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** A bulk action on a row: accept risk, won't fix, or one task for the group. */
export function useRollupAction(onDone: (r: Awaited<ReturnType<typeof postRollupAction>>) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postRollupAction,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: ['findings'] });
      onDone(r);
    },
  });
}

function postRollupAction(body: RollupBulkBody) {
  return call(api.POST('/api/v1/findings/inventory-rollup/bulk-status', { body }));
}

/**
 * The list's selection (filters or `q`) as the roll-up's bulk body wants it: `q` alone, or
 * the filters as an object.
 */
export function bodySelection(
  selection: Record<string, string>,
): Pick<RollupBulkBody, 'q' | 'filters'> {
  const { q, ...filters } = selection;
  return {
    ...(q ? { q } : {}),
    ...(Object.keys(filters).length > 0 ? { filters: filters as RollupBulkBody['filters'] } : {}),
  };
}

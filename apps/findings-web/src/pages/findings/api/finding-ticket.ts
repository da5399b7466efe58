import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, call } from '../../../api/client';
import type { paths } from '../../../api/schema.gen';
import { findingQueryKeys } from './finding-query-keys';

type CreateBody = NonNullable<
  paths['/api/v1/findings/{id}/ticket']['post']['requestBody']
>['content']['application/json'];
type LinkBody = NonNullable<
  paths['/api/v1/findings/{id}/ticket/link']['post']['requestBody']
>['content']['application/json'];

/**
 * The targets (tracker projects, repositories, lists) of the project's ticket provider; `null`
 * when the project has no provider configured (422 ticket_provider_not_configured).
 */
export function useTicketTargets(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['ticket-targets', projectId],
    enabled,
    staleTime: 60_000,
    queryFn: async () => {
      try {
        return await call(
          api.GET('/api/v1/projects/{id}/ticket-targets', { params: { path: { id: projectId } } }),
        );
      } catch (error) {
        if (error instanceof ApiError && error.code === 'ticket_provider_not_configured') {
          return null;
        }
        throw error;
      }
    },
  });
}

/** After a ticket changed: the finding and every list (the ticket column) read it again. */
function useTicketChanged(findingId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: findingQueryKeys.one(findingId) }),
      client.invalidateQueries({ queryKey: findingQueryKeys.lists() }),
    ]);
}

/** A new task in the tracker for one finding. */
export function useCreateTicket(findingId: string) {
  const changed = useTicketChanged(findingId);
  return useMutation({
    mutationFn: (body: CreateBody) =>
      call(api.POST('/api/v1/findings/{id}/ticket', { params: { path: { id: findingId } }, body })),
    onSuccess: changed,
  });
}

/** An existing task linked to the finding (by its key, or by the finding's label). */
export function useLinkTicket(findingId: string) {
  const changed = useTicketChanged(findingId);
  return useMutation({
    mutationFn: (body: LinkBody) =>
      call(
        api.POST('/api/v1/findings/{id}/ticket/link', {
          params: { path: { id: findingId } },
          body,
        }),
      ),
    onSuccess: changed,
  });
}

type BulkBody = NonNullable<
  paths['/api/v1/findings/ticket/bulk']['post']['requestBody']
>['content']['application/json'];
export type BulkTicketResult = Awaited<ReturnType<typeof postBulkTicket>>;

function postBulkTicket(body: BulkBody) {
  return call(api.POST('/api/v1/findings/ticket/bulk', { body }));
}

/** One task for the selected findings (those with a task already are skipped). */
export function useBulkTicket(onDone: (result: BulkTicketResult) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: postBulkTicket,
    onSuccess: async (result) => {
      await client.invalidateQueries({ queryKey: findingQueryKeys.lists() });
      onDone(result);
    },
  });
}

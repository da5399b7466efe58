import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../../api/client';
import { findingQueryKeys } from './finding-query-keys';

/** After a merge or unmerge: every list and every finding page read again. */
function useMergeChanged() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: findingQueryKeys.lists() }),
      client.invalidateQueries({ queryKey: ['finding'] }),
      client.invalidateQueries({ queryKey: ['finding-actions'] }),
    ]);
}

/** The selected findings, read one by one for the merge dialog (titles, product, status). */
export function useSelectedFindings(ids: readonly string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: findingQueryKeys.one(id),
      queryFn: () => call(api.GET('/api/v1/findings/{id}', { params: { path: { id } } })),
    })),
  });
}

/** POST /findings/merge: `findingIds` are merged into `survivorId`. */
export function useMergeFindings() {
  const changed = useMergeChanged();
  return useMutation({
    mutationFn: (body: { survivor_id: string; finding_ids: string[] }) =>
      call(api.POST('/api/v1/findings/merge', { body })),
    onSuccess: changed,
  });
}

/** POST /findings/{id}/unmerge: a member detaches; a survivor detaches all its members. */
export function useUnmerge() {
  const changed = useMergeChanged();
  return useMutation({
    mutationFn: (id: string) =>
      call(api.POST('/api/v1/findings/{id}/unmerge', { params: { path: { id } } })),
    onSuccess: changed,
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../../api/client';
import { findingQueryKeys } from './finding-query-keys';

/** A finding's comment thread, oldest first (up to 500: a thread, not an archive). */
export function useFindingComments(id: string) {
  return useQuery({
    queryKey: findingQueryKeys.comments(id),
    queryFn: () =>
      call(
        api.GET('/api/v1/findings/{id}/comments', {
          params: { path: { id }, query: { limit: 500 } },
        }),
      ),
  });
}

/** Adds a comment to the thread. */
export function useAddComment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      call(
        api.POST('/api/v1/findings/{id}/comments', { params: { path: { id } }, body: { body } }),
      ),
    onSuccess: () =>
      void queryClient.invalidateQueries({ queryKey: findingQueryKeys.comments(id) }),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, callVoid } from '../../../api/client';
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

/** Changes the text of a comment (its author only; the API refuses others). */
export function useEditComment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, body }: { commentId: string; body: string }) =>
      call(
        api.PATCH('/api/v1/findings/{id}/comments/{comment_id}', {
          params: { path: { id, comment_id: commentId } },
          body: { body },
        }),
      ),
    onSuccess: () =>
      void queryClient.invalidateQueries({ queryKey: findingQueryKeys.comments(id) }),
  });
}

/** Deletes a comment (its author, an admin of the project or a global admin). */
export function useDeleteComment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) =>
      callVoid(
        api.DELETE('/api/v1/findings/{id}/comments/{comment_id}', {
          params: { path: { id, comment_id: commentId } },
        }),
      ),
    onSuccess: () =>
      void queryClient.invalidateQueries({ queryKey: findingQueryKeys.comments(id) }),
  });
}

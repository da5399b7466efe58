/**
 * The query keys of the findings screens, in one place: every query and every invalidation of
 * the findings hooks takes its key from here (the shapes are the ones other screens invalidate:
 * `['finding', id]` after an automatic-closure request, `['members', projectId]` by the project page).
 */
export const findingQueryKeys = {
  /** Every list of `GET /api/v1/findings` (any view). */
  lists: () => ['findings'] as const,
  /** `GET /api/v1/findings` of one view. */
  list: (query: Record<string, string>) => ['findings', query] as const,
  /** `GET /api/v1/findings/{id}`. */
  one: (id: string) => ['finding', id] as const,
  /** `GET /api/v1/findings/{id}/actions`. */
  actions: (id: string) => ['finding-actions', id] as const,
  /** `GET /api/v1/findings/{id}/comments`. */
  comments: (id: string) => ['finding-comments', id] as const,
  /** `GET /api/v1/products/{id}` (the repository address). */
  product: (id: string) => ['product', id] as const,
  /** `GET /api/v1/projects/{id}/members`. */
  members: (projectId: string) => ['members', projectId] as const,
};

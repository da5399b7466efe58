/**
 * The query keys of plugin administration, in one place: every query and every invalidation
 * of the plugin hooks takes its key from here.
 */
export const pluginQueryKeys = {
  /** `GET /api/v1/admin/plugin-marketplaces`. */
  sources: () => ['marketplaces'] as const,
  /** `GET /api/v1/admin/plugin-marketplaces/{id}/catalog`. */
  catalog: (sourceId: string) => ['catalog', sourceId] as const,
  /** `GET /api/v1/admin/installed-plugins`. */
  installed: () => ['installed-plugins'] as const,
};

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/client';
import { pluginQueryKeys } from './plugin-query-keys';

export type PluginSource = Schemas['PluginMarketplaceDto'];
export type NewPluginSource = Schemas['CreatePluginMarketplaceDto'];
export type CatalogEntry = Schemas['CatalogEntryDto'];

/** The catalog sources (marketplaces). */
export function usePluginSources() {
  return useQuery({
    queryKey: pluginQueryKeys.sources(),
    queryFn: () => call(api.GET('/api/v1/admin/plugin-marketplaces')),
  });
}

/** A source's catalog, fetched and verified by the API now. */
export function useSourceCatalog(sourceId: string) {
  return useQuery({
    queryKey: pluginQueryKeys.catalog(sourceId),
    queryFn: () =>
      call(
        api.GET('/api/v1/admin/plugin-marketplaces/{id}/catalog', {
          params: { path: { id: sourceId } },
        }),
      ),
  });
}

/** Adds a source; `onAdded` runs before the list is refetched. */
export function useAddPluginSource(onAdded: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewPluginSource) =>
      call(api.POST('/api/v1/admin/plugin-marketplaces', { body })),
    onSuccess: () => {
      onAdded();
      void queryClient.invalidateQueries({ queryKey: pluginQueryKeys.sources() });
    },
  });
}

/** Grants or withdraws native execution for a source; `onSet` runs before the refetch. */
export function useSetSourceNative(sourceId: string, onSet: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (allows: boolean) =>
      call(
        api.PUT('/api/v1/admin/plugin-marketplaces/{id}', {
          params: { path: { id: sourceId } },
          body: { allows_native: allows },
        }),
      ),
    onSuccess: () => {
      onSet();
      void queryClient.invalidateQueries({ queryKey: pluginQueryKeys.sources() });
    },
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/client';
import type { SettingsValues } from '../../../components/PluginSettingsForm';
import { pluginQueryKeys } from './plugin-query-keys';
import type { CatalogEntry } from './plugin-sources';

export type InstalledPlugin = Schemas['InstalledPluginDto'];

/** The installed plugins. */
export function useInstalledPlugins() {
  return useQuery({
    queryKey: pluginQueryKeys.installed(),
    queryFn: () => call(api.GET('/api/v1/admin/installed-plugins')),
  });
}

function useRefetchInstalled(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: pluginQueryKeys.installed() });
}

/** Installs a catalog entry of a source (a chosen version, else the newest). */
export function useInstallPlugin(sourceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entry, version }: { entry: CatalogEntry; version: string | null }) =>
      call(
        api.POST('/api/v1/admin/installed-plugins', {
          body: {
            source_type: 'marketplace',
            marketplace_id: sourceId,
            catalog_plugin_id: entry.id,
            runtime: entry.runtime,
            ...(version ? { version } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: pluginQueryKeys.installed() });
      void queryClient.invalidateQueries({ queryKey: pluginQueryKeys.catalog(sourceId) });
    },
  });
}

/** Saves the installation settings; secrets are write-only. */
export function useSavePluginSettings(pluginId: string) {
  const refetch = useRefetchInstalled();
  return useMutation({
    mutationFn: ({ settings, secrets }: SettingsValues) =>
      call(
        api.PUT('/api/v1/admin/installed-plugins/{id}', {
          params: { path: { id: pluginId } },
          body: { settings, secret_settings: secrets },
        }),
      ),
    onSuccess: refetch,
  });
}

/** Enables (loads in the runner) or disables an installation. */
export function useSetPluginEnabled(pluginId: string) {
  const refetch = useRefetchInstalled();
  return useMutation({
    mutationFn: (enabled: boolean) => {
      const path = { params: { path: { id: pluginId } } };
      return enabled
        ? call(api.POST('/api/v1/admin/installed-plugins/{id}/enable', path))
        : call(api.POST('/api/v1/admin/installed-plugins/{id}/disable', path));
    },
    onSuccess: refetch,
  });
}

/** Applies the held version whose wider capabilities the administrator accepts. */
export function useAcknowledgeCapabilityChange(pluginId: string) {
  const refetch = useRefetchInstalled();
  return useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/admin/installed-plugins/{id}/acknowledge-capability-change', {
          params: { path: { id: pluginId } },
        }),
      ),
    onSuccess: refetch,
  });
}

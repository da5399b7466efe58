import { useQuery } from '@tanstack/react-query';
import { api, authFetch, call, callVoid, toApiError, type Schemas } from '../../api/client';

export type Network = Schemas['NetworkDto'];
export type NetworkInput = Schemas['CreateNetworkDto'];

export const useNetworks = () =>
  useQuery({ queryKey: ['networks'], queryFn: () => call(api.GET('/api/v1/admin/networks')) });

export const createNetwork = (body: NetworkInput) =>
  call(api.POST('/api/v1/admin/networks', { body }));

export const deleteNetwork = (id: string) =>
  callVoid(api.DELETE('/api/v1/admin/networks/{id}', { params: { path: { id } } }));

export const setNetworkEnabled = (id: string, enabled: boolean) =>
  enabled
    ? call(api.POST('/api/v1/admin/networks/{id}/restore', { params: { path: { id } } }))
    : call(api.POST('/api/v1/admin/networks/{id}/disable', { params: { path: { id } } }));

/** The changes of the edit dialog, one route each (only what changed is sent). */
export async function updateNetwork(
  network: Network,
  next: { radius: string[]; agentOff: boolean; macosOff: boolean },
): Promise<void> {
  const path = { params: { path: { id: network.id } } };
  if (next.radius.join('\n') !== network.radius_server_names.join('\n')) {
    await call(
      api.PUT('/api/v1/admin/networks/{id}/radius-server-names', {
        ...path,
        body: { radius_server_names: next.radius },
      }),
    );
  }
  if (next.agentOff !== network.agent_profile_disabled) {
    await call(
      api.PUT('/api/v1/admin/networks/{id}/agent-profile-disabled', {
        ...path,
        body: { disabled: next.agentOff },
      }),
    );
  }
  if (next.macosOff !== network.macos_agent_profile_disabled) {
    await call(
      api.PUT('/api/v1/admin/networks/{id}/macos-agent-profile-disabled', {
        ...path,
        body: { disabled: next.macosOff },
      }),
    );
  }
}

/** `GET /admin/networks.csv` (every role): the list as the service writes it, for a download. */
export async function networksCsv(): Promise<Blob> {
  const response = await authFetch(
    new Request(`${window.location.origin}/api/v1/admin/networks.csv`),
  );
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
  return new Blob([await response.text()], { type: 'text/csv;charset=utf-8' });
}

import { useQuery } from '@tanstack/react-query';
import { api, call, callVoid, type Schemas } from '../../api/client';

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

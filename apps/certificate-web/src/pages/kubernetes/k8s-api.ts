import { useQuery } from '@tanstack/react-query';
import { api, call, callVoid, type Schemas } from '../../api/client';
export { formatMappings, parseMappings } from './group-mappings';

export type Cluster = Schemas['K8sClusterDto'];
export type { GroupMapping } from './group-mappings';
export type ClusterInput = Schemas['CreateK8sClusterDto'];

export const useClusters = () =>
  useQuery({
    queryKey: ['k8s', 'clusters'],
    queryFn: () => call(api.GET('/api/v1/admin/k8s-clusters')),
  });

export const createCluster = (body: ClusterInput) =>
  call(api.POST('/api/v1/admin/k8s-clusters', { body }));

export const updateCluster = (id: string, body: Schemas['UpdateK8sClusterDto']) =>
  call(api.PUT('/api/v1/admin/k8s-clusters/{id}', { params: { path: { id } }, body }));

export const deleteCluster = (id: string) =>
  callVoid(api.DELETE('/api/v1/admin/k8s-clusters/{id}', { params: { path: { id } } }));

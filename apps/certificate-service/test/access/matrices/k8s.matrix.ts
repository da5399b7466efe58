import { randomUUID } from 'node:crypto';
import { ADMIN } from './callers';
import type { RoleMatrixRow } from './run-role-matrix';

const id = randomUUID();
const row = (method: RoleMatrixRow['method'], template: string): RoleMatrixRow => ({
  method,
  template,
  path: template.replace(':id', id),
  allowed: ADMIN,
});

/**
 * Kubernetes cluster registry: cert-admin only, reads included (specification, "Read access
 * that requires cert-admin"). The credential broker is not a route of the API listener.
 */
export const K8S_ROWS: RoleMatrixRow[] = [
  row('get', '/api/v1/admin/k8s-clusters'),
  row('post', '/api/v1/admin/k8s-clusters'),
  row('put', '/api/v1/admin/k8s-clusters/:id'),
  row('delete', '/api/v1/admin/k8s-clusters/:id'),
];

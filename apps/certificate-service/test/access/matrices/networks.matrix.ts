import { randomUUID } from 'node:crypto';
import { ADMIN, READERS, type Caller } from './callers';
import type { RoleMatrixRow } from './run-role-matrix';

const id = randomUUID();
const row = (
  method: RoleMatrixRow['method'],
  template: string,
  allowed: Caller[] = ADMIN,
): RoleMatrixRow => ({ method, template, path: template.replace(':id', id), allowed });

/**
 * Networks (specification, "Roles"): cert-admin writes; the list (and its CSV) is readable by
 * all three person roles. Service accounts reach none of them.
 */
export const NETWORKS_ROWS: RoleMatrixRow[] = [
  row('get', '/api/v1/admin/networks', READERS),
  row('get', '/api/v1/admin/networks.csv', READERS),
  row('post', '/api/v1/admin/networks'),
  row('delete', '/api/v1/admin/networks/:id'),
  row('post', '/api/v1/admin/networks/:id/disable'),
  row('post', '/api/v1/admin/networks/:id/restore'),
  row('put', '/api/v1/admin/networks/:id/agent-profile-disabled'),
  row('put', '/api/v1/admin/networks/:id/macos-agent-profile-disabled'),
  row('put', '/api/v1/admin/networks/:id/radius-server-names'),
];

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
 * Outgoing webhooks: cert-admin only, reads included (specification, "Read access that
 * requires cert-admin ... webhooks").
 */
export const WEBHOOKS_ROWS: RoleMatrixRow[] = [
  row('get', '/api/v1/admin/webhooks'),
  row('post', '/api/v1/admin/webhooks'),
  row('put', '/api/v1/admin/webhooks/:id'),
  row('delete', '/api/v1/admin/webhooks/:id'),
  row('put', '/api/v1/admin/webhooks/:id/enabled'),
  row('post', '/api/v1/admin/webhooks/:id/test'),
  row('get', '/api/v1/admin/webhooks/:id/deliveries'),
];

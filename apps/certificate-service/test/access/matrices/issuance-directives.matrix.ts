import { randomUUID } from 'node:crypto';
import { ADMIN } from './callers';
import type { RoleMatrixRow } from './run-role-matrix';

const id = randomUUID();
const row = (
  method: RoleMatrixRow['method'],
  template: string,
  allowed: RoleMatrixRow['allowed'] = ADMIN,
): RoleMatrixRow => ({
  method,
  template,
  path: template.replace(':id', id).replace(':serial', 'MATRIX-SERIAL'),
  allowed,
});

/**
 * Issuance directives: the queue and a device's directives are cert-admin only, reads
 * included (specification, "Read access that requires cert-admin ... issuance directives
 * queue"); the report route takes X-Agent-Secret only.
 */
export const ISSUANCE_DIRECTIVES_ROWS: RoleMatrixRow[] = [
  row('get', '/api/v1/admin/issuance-directives'),
  row('delete', '/api/v1/admin/issuance-directives/:id'),
  row('get', '/api/v1/devices/:serial/issuance-directives'),
  row('post', '/api/v1/devices/:serial/issuance-directives'),
  row('post', '/api/v1/enroll/issuance-directives/:id/report', 'agent'),
];

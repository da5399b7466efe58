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
 * TPM vendor roots: a setting, so cert-admin only, reads included (specification, "Roles").
 * The POST row gets an invalid body (400) and the DELETE an unknown id (404): nothing changes.
 */
export const TPM_ROOTS_ROWS: RoleMatrixRow[] = [
  row('get', '/api/v1/settings/tpm-roots'),
  row('post', '/api/v1/settings/tpm-roots'),
  row('delete', '/api/v1/settings/tpm-roots/:id'),
];

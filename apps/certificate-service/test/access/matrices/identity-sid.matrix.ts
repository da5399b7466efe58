import { ADMIN } from './callers';
import type { RoleMatrixRow } from './run-role-matrix';

const row = (
  method: RoleMatrixRow['method'],
  template: string,
  allowed: RoleMatrixRow['allowed'],
): RoleMatrixRow => ({ method, template, path: template, allowed });

/**
 * Identity SID look-ups. The agent route is public (serial and enrollment token in the body,
 * the enroll limit per address); the matrix body is invalid, so every caller gets 400 and the
 * directory is never asked. The directory setting is a setting: cert-admin only, reads
 * included (specification, "Roles"); the admin's invalid PUT is refused (400) and the
 * connection test of nothing stored answers 409.
 */
export const IDENTITY_SID_ROWS: RoleMatrixRow[] = [
  row('post', '/api/v1/enroll/identity-sid', 'public'),
  row('get', '/api/v1/settings/identity-directory', ADMIN),
  row('put', '/api/v1/settings/identity-directory', ADMIN),
  row('post', '/api/v1/settings/identity-directory/test-connection', ADMIN),
];

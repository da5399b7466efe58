import { ADMIN } from './callers';
import type { RoleMatrixRow } from './run-role-matrix';

const row = (method: RoleMatrixRow['method'], template: string): RoleMatrixRow => ({
  method,
  template,
  path: template.replace(':purpose', 'wifi'),
  allowed: ADMIN,
});

/**
 * Issuer profiles: cert-admin only, reads included (specification, "Read access that requires
 * cert-admin: system settings and issuer profiles"). Write rows get an invalid body, so the
 * admin's PUT is refused (400) and nothing changes.
 */
export const ISSUER_PROFILES_ROWS: RoleMatrixRow[] = [
  row('get', '/api/v1/settings/issuers'),
  row('get', '/api/v1/settings/issuers/:purpose'),
  row('put', '/api/v1/settings/issuers/:purpose'),
  row('post', '/api/v1/settings/issuers/:purpose/test-connection'),
];

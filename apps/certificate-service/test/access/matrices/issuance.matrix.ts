import { ADMIN, ALL_ROLES, APPROVERS, type Caller, READERS } from './callers';

export interface IssuanceRow {
  method: 'get' | 'post' | 'put';
  template: string;
  path: string;
  allowed: Caller[] | 'public';
}

const serial = 'MATRIX-NO-SUCH-DEVICE';
const certificate = '0badc0ffee';
const row = (
  method: IssuanceRow['method'],
  template: string,
  allowed: IssuanceRow['allowed'],
): IssuanceRow => ({
  method,
  template,
  path: template
    .replace(':serial', template.startsWith('/api/v1/certificates') ? certificate : serial)
    .replace(':identity', 'nobody@certsvc.test'),
  allowed,
});

// Write routes get an invalid body: a caller that passes the guard gets 400 or 404, nothing changes.
export const ISSUANCE_ROWS: IssuanceRow[] = [
  row('get', '/api/v1/issuer', 'public'),
  row('post', '/api/v1/requests/approve', APPROVERS),
  row('post', '/api/v1/requests/check-conflicts', ALL_ROLES),
  row('post', '/api/v1/requests/reject', ADMIN),
  row('get', '/api/v1/license/status', READERS),
  row('get', '/api/v1/license/seat-enforcement', READERS),
  row('put', '/api/v1/license/seat-enforcement', ADMIN),
  row('post', '/api/v1/license/activate', ADMIN),
  row('post', '/api/v1/license/attest', 'public'),
  row('post', '/api/v1/license/decommission', ADMIN),
  row('post', '/api/v1/license/reanchor', ADMIN),
  row('get', '/api/v1/certificates', READERS),
  row('get', '/api/v1/certificates/:serial', READERS),
  row('get', '/api/v1/certificates/:serial/bundle', READERS),
  row('post', '/api/v1/certificates/:serial/revoke', ADMIN),
  row('put', '/api/v1/certificates/:serial/key-protection', ADMIN),
  row('post', '/api/v1/devices/:serial/revoke', ADMIN),
  row('post', '/api/v1/devices/:serial/unblock', ADMIN),
  row('post', '/api/v1/users/:identity/revoke-certs', ADMIN),
  row('get', '/api/v1/admin/stats', READERS),
];

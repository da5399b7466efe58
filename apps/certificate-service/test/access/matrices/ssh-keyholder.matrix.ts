import { randomUUID } from 'node:crypto';
import { ADMIN, type Caller, READERS } from './callers';

export interface SshKeyholderRow {
  method: 'get' | 'post' | 'put' | 'delete';
  template: string;
  path: string;
  /** `public`: no session (enroll routes: serial + token; key-holder: network, rate, token gate). */
  allowed: Caller[] | 'public';
}

const id = randomUUID();
const row = (
  method: SshKeyholderRow['method'],
  template: string,
  allowed: SshKeyholderRow['allowed'],
): SshKeyholderRow => ({
  method,
  template,
  path: template
    .replace(':id', id)
    .replace(':serial', 'MATRIX-NO-SUCH-DEVICE')
    .replace(':alias', 'matrix-no-alias')
    .replace(':member', 'nobody@certsvc.test'),
  allowed,
});

/**
 * SSH key registry, principal aliases, key-holder API and system settings. The fleet SSH key
 * list, principal aliases (reads included) and system settings need cert-admin (specification,
 * "Read access that requires cert-admin"); one device's keys and the token gate are readable by
 * every admin role. Key-holder routes are answered from loopback (the default allowed network)
 * with the gate at `off`; their own protection is tested in test/keyholder/.
 */
export const SSH_KEYHOLDER_ROWS: SshKeyholderRow[] = [
  row('post', '/api/v1/enroll/ssh-key', 'public'),
  row('post', '/api/v1/enroll/ssh-key/status', 'public'),
  row('get', '/api/v1/admin/ssh-keys', ADMIN),
  row('post', '/api/v1/admin/ssh-keys/:id/approve', ADMIN),
  row('post', '/api/v1/admin/ssh-keys/:id/reject', ADMIN),
  row('post', '/api/v1/admin/ssh-keys/:id/revoke', ADMIN),
  row('get', '/api/v1/devices/:serial/ssh-keys', READERS),
  row('get', '/api/v1/admin/principal-aliases', ADMIN),
  row('post', '/api/v1/admin/principal-aliases', ADMIN),
  row('delete', '/api/v1/admin/principal-aliases/:alias', ADMIN),
  row('put', '/api/v1/admin/principal-aliases/:alias/enabled', ADMIN),
  row('get', '/api/v1/admin/principal-aliases/:alias/keys', ADMIN),
  row('post', '/api/v1/admin/principal-aliases/:alias/members', ADMIN),
  row('delete', '/api/v1/admin/principal-aliases/:alias/members/:member', ADMIN),
  row('get', '/api/v1/keyholder/keys', 'public'),
  row('get', '/api/v1/keyholder/principals', 'public'),
  row('get', '/api/v1/keyholder/revocations', 'public'),
  row('get', '/api/v1/admin/keyholder-token-gate', READERS),
  row('get', '/api/v1/admin/keyholder-tokens', ADMIN),
  row('post', '/api/v1/admin/keyholder-tokens', ADMIN),
  row('put', '/api/v1/admin/keyholder-tokens/:id/principals', ADMIN),
  row('delete', '/api/v1/admin/keyholder-tokens/:id', ADMIN),
  row('get', '/api/v1/settings/system', ADMIN),
  row('put', '/api/v1/settings/system', ADMIN),
];

import { randomUUID } from 'node:crypto';
import { ADMIN, ALL_ROLES, type Caller, READERS } from './callers';

export interface DevicesEnrollmentRow {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  template: string;
  /** `public`: no session; `agent`: X-Agent-Secret only, a bearer token never opens it. */
  allowed: Caller[] | 'public' | 'agent';
}

const serial = 'MATRIX-NO-SUCH-DEVICE';
const id = randomUUID();
const row = (
  method: DevicesEnrollmentRow['method'],
  template: string,
  allowed: DevicesEnrollmentRow['allowed'],
): DevicesEnrollmentRow => ({
  method,
  template,
  path: template.replace(':serial', serial).replace(':purpose', 'k8s').replace(':id', id),
  allowed,
});

// Write routes get an invalid body: a caller that passes the guard gets 400 or 404.
export const DEVICES_ENROLLMENT_ROWS: DevicesEnrollmentRow[] = [
  row('post', '/api/v1/enroll', 'public'),
  row('post', '/api/v1/enroll/nonce', 'public'),
  row('post', '/api/v1/enroll/source-nonce', 'public'),
  row('post', '/api/v1/enroll/user', 'public'),
  row('post', '/api/v1/enroll/purposes', 'public'),
  row('post', '/api/v1/enroll/purpose-request', 'public'),
  row('post', '/api/v1/enroll/crl', 'public'),
  row('get', '/api/v1/requests/:id/status', 'agent'),
  row('post', '/api/v1/requests/:id/checkin', 'agent'),
  row('get', '/api/v1/requests/:id/bundle-version', 'agent'),
  row('get', '/api/v1/requests/:id/certificate', 'agent'),
  row('get', '/api/v1/requests', ALL_ROLES),
  row('get', '/api/v1/requests.csv', ALL_ROLES),
  row('get', '/api/v1/devices', READERS),
  row('get', '/api/v1/devices.csv', READERS),
  row('get', '/api/v1/devices/agent-versions', READERS),
  row('get', '/api/v1/devices/:serial/purposes', READERS),
  row('put', '/api/v1/devices/:serial/purposes', ADMIN),
  row('put', '/api/v1/devices/:serial/owner', ADMIN),
  row('put', '/api/v1/devices/:serial/purpose-overrides', ADMIN),
  row('post', '/api/v1/devices/:serial/purposes/:purpose/decision', ADMIN),
  row('post', '/api/v1/devices/:serial/rotate-enrollment-token', ADMIN),
  row('post', '/api/v1/devices/:serial/unbind-tpm', ADMIN),
  row('post', '/api/v1/devices/:serial/release-tpm-pin', ADMIN),
  row('post', '/api/v1/devices/:serial/release-enroll-key', ADMIN),
  row('post', '/api/v1/devices/:serial/release-continuity-key', ADMIN),
  row('get', '/api/v1/admin/purpose-overrides/:purpose/cost', READERS),
  row('delete', '/api/v1/admin/purpose-overrides/:purpose', ADMIN),
  row('get', '/api/v1/admin/purpose-requests', READERS),
  row('get', '/api/v1/admin/corp-allowlist', ADMIN),
  row('post', '/api/v1/admin/corp-allowlist', ADMIN),
  row('delete', '/api/v1/admin/corp-allowlist/:serial', ADMIN),
  row('get', '/api/v1/settings/enroll-source-auth', READERS),
  row('put', '/api/v1/settings/enroll-source-auth', ADMIN),
  row('get', '/api/v1/settings/sa-auto-approve', READERS),
  row('put', '/api/v1/settings/sa-auto-approve', ADMIN),
];

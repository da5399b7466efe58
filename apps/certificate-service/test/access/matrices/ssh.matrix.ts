import type { RoleMatrixRow } from './run-role-matrix';

const row = (
  method: RoleMatrixRow['method'],
  template: string,
  allowed: RoleMatrixRow['allowed'],
): RoleMatrixRow => ({ method, template, path: template, allowed });

/**
 * SSH CA and KRL routes (and SSH certificate enrollment). The CA public key and the KRL are
 * public: target servers read them for `TrustedUserCAKeys` / `RevokedKeys`, and neither is
 * secret. `/keyholder/krl` serves the same bytes behind the key-holder checks (network, rate,
 * token gate: loopback and gate `off` here; tested in test/keyholder/). `/enroll/ssh` is
 * authenticated by serial + enrollment token, not by a session. The agent fetches an SSH
 * certificate at `/requests/:id/certificate` (devices-enrollment matrix) and an SSH certificate
 * is revoked at `/certificates/:serial/revoke` (issuance matrix).
 */
export const SSH_ROWS: RoleMatrixRow[] = [
  row('get', '/api/v1/ssh/ca-public-key', 'public'),
  row('get', '/api/v1/ssh/krl', 'public'),
  row('get', '/api/v1/keyholder/krl', 'public'),
  row('post', '/api/v1/enroll/ssh', 'public'),
];

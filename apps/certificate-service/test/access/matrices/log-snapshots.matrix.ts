import { randomUUID } from 'node:crypto';
import { ADMIN } from './callers';
import type { RoleMatrixRow } from './run-role-matrix';

const requestId = randomUUID();
const logId = randomUUID();
const row = (
  method: RoleMatrixRow['method'],
  template: string,
  allowed: RoleMatrixRow['allowed'] = ADMIN,
): RoleMatrixRow => ({
  method,
  template,
  path: template
    .replace(':id', requestId)
    .replace(':serial', 'MATRIX-LOGS-SERIAL')
    .replace(':logId', logId),
  allowed,
});

/**
 * Agent log snapshots: the upload takes only X-Agent-Secret; the admin routes are cert-admin
 * only, reads included (logs may hold personal data; docs/certificate-service/log-snapshots.md).
 */
export const LOG_SNAPSHOTS_ROWS: RoleMatrixRow[] = [
  row('post', '/api/v1/requests/:id/logs', 'agent'),
  row('get', '/api/v1/devices/:serial/logs'),
  row('get', '/api/v1/devices/:serial/logs/:logId'),
  row('delete', '/api/v1/devices/:serial/logs/:logId'),
  row('post', '/api/v1/devices/:serial/request-logs'),
  row('delete', '/api/v1/devices/:serial/request-logs'),
];

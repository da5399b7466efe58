import type { RoleMatrixRow } from './run-role-matrix';

/**
 * `POST /api/v1/enroll/token-recover`: public (the proof is a signature with a pinned key, not
 * a session). The matrix body is invalid, so every caller gets 400 and nothing changes; a
 * bearer token neither opens nor closes it.
 */
export const TOKEN_RECOVER_ROWS: RoleMatrixRow[] = [
  {
    method: 'post',
    template: '/api/v1/enroll/token-recover',
    path: '/api/v1/enroll/token-recover',
    allowed: 'public',
  },
];

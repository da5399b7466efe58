import type { RoleMatrixRow } from './run-role-matrix';

/**
 * `POST /api/v1/enroll/app-attest/challenge` and `POST /api/v1/enroll/app-attest`: public (the
 * proof is the App Attest object over a one-use challenge, not a session), rate-limited like
 * every `/enroll*` route. The matrix bodies are invalid, so every caller gets 400 and nothing
 * is stored; a bearer token neither opens nor closes them.
 */
export const APP_ATTEST_ROWS: RoleMatrixRow[] = [
  {
    method: 'post',
    template: '/api/v1/enroll/app-attest/challenge',
    path: '/api/v1/enroll/app-attest/challenge',
    allowed: 'public',
  },
  {
    method: 'post',
    template: '/api/v1/enroll/app-attest',
    path: '/api/v1/enroll/app-attest',
    allowed: 'public',
  },
];

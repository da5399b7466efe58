import { declaredRoutes } from '../support/declared-routes';
import { ADMIN_EMAIL, startTestApp } from '../support/test-app';
import { routeKey } from './matrices/callers';
import { FOUNDATION_PREFIXES, FOUNDATION_ROWS } from './matrices/foundation.matrix';
import { runRoleMatrix } from './matrices/run-role-matrix';

const ROWS = FOUNDATION_ROWS;

describe('Role matrix - every route built so far', () => {
  const matrix = runRoleMatrix(ROWS, {
    startApp: () => startTestApp(),
    name: 'path',
    serviceAccount: { allowed_purposes: ['wifi', 'ssh'] },
  });

  it('covers every route of the foundation modules', () => {
    const templates = ROWS.map((r) => routeKey(r));
    const foundation = declaredRoutes(matrix.app())
      .map((r) => r.route)
      .filter((route) =>
        FOUNDATION_PREFIXES.some((prefix) => route.split(' ')[1].startsWith(prefix)),
      )
      // Revocation route under /users, covered by issuance-role-matrix.e2e-spec.ts.
      .filter((route) => route !== 'POST /api/v1/users/:identity/revoke-certs');
    expect(templates.sort()).toEqual(foundation);
  });

  it('still has its cert-admin', async () => {
    const res = await matrix
      .app()
      .http.get('/api/v1/auth/me')
      .set('authorization', `Bearer ${matrix.token('admin')}`)
      .expect(200);
    expect(res.body.email).toBe(ADMIN_EMAIL);
  });
});

import { declaredRoutes } from '../support/declared-routes';
import { createServiceAccount, createUser, loginAdmin } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';
import { CALLERS, type Caller, routeKey } from './matrices/callers';
import { FOUNDATION_PREFIXES, FOUNDATION_ROWS } from './matrices/foundation.matrix';

const ROWS = FOUNDATION_ROWS;

describe('Role matrix - every route built so far', () => {
  let t: TestApp;
  const tokens = new Map<Caller, string>();
  beforeAll(async () => {
    t = await startTestApp();
    const admin = await loginAdmin(t);
    tokens.set('admin', admin.accessToken);
    tokens.set('viewer', (await createUser(t, admin, ['cert-viewer'])).accessToken);
    tokens.set('approver', (await createUser(t, admin, ['cert-approver'])).accessToken);
    tokens.set('no-role', (await createUser(t, admin, [])).accessToken);
    tokens.set(
      'service-account',
      (await createServiceAccount(t, admin, { allowed_purposes: ['wifi', 'ssh'] })).token,
    );
  });
  afterAll(() => t.close());

  const cases = ROWS.flatMap((row) =>
    CALLERS.map((caller) => [row.method.toUpperCase(), row.path, caller, row] as const),
  );

  it.each(cases)('%s %s as %s', async (_m, _p, caller, row) => {
    let req = t.http[row.method](row.path);
    const token = tokens.get(caller);
    if (token) req = req.set('authorization', `Bearer ${token}`);
    if (row.method !== 'get') req = req.send({ invalid_field: true });
    const res = await req;
    if (row.allowed === 'public' || row.allowed.includes(caller)) {
      expect([401, 403]).not.toContain(res.status);
    } else {
      expect(res.status).toBe(caller === 'anonymous' ? 401 : 403);
    }
  });

  it('covers every route of the foundation modules', () => {
    const templates = ROWS.map((r) => routeKey(r));
    const foundation = declaredRoutes(t)
      .map((r) => r.route)
      .filter((route) =>
        FOUNDATION_PREFIXES.some((prefix) => route.split(' ')[1].startsWith(prefix)),
      )
      // Revocation route under /users, covered by issuance-role-matrix.e2e-spec.ts.
      .filter((route) => route !== 'POST /api/v1/users/:identity/revoke-certs');
    expect(templates.sort()).toEqual(foundation);
  });

  it('still has its cert-admin', async () => {
    const res = await t.http
      .get('/api/v1/auth/me')
      .set('authorization', `Bearer ${tokens.get('admin')}`)
      .expect(200);
    expect(res.body.email).toBe(ADMIN_EMAIL);
  });
});

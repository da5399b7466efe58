import { randomUUID } from 'node:crypto';
import { declaredRoutes } from '../support/declared-routes';
import { createServiceAccount, createUser, loginAdmin } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';

type Caller = 'anonymous' | 'no-role' | 'viewer' | 'approver' | 'admin' | 'service-account';
const CALLERS: Caller[] = [
  'anonymous',
  'no-role',
  'viewer',
  'approver',
  'admin',
  'service-account',
];
const PEOPLE: Caller[] = ['no-role', 'viewer', 'approver', 'admin'];
const READERS: Caller[] = ['viewer', 'approver', 'admin'];
const ADMIN: Caller[] = ['admin'];

interface Row {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  allowed: Caller[] | 'public';
}

/** Routes of the auth, users, service-accounts, audit and system modules. */
const FOUNDATION_PREFIXES = [
  '/health',
  '/metrics',
  '/api/v1/version',
  '/api/v1/features',
  '/api/v1/auth/',
  '/api/v1/users',
  '/api/v1/service-accounts',
  '/api/v1/audit',
];

const someone = 'someone@certsvc.test';
const sa = randomUUID();

// Write routes get an invalid body: a caller that passes the guard gets 400 (or 404), so the
// matrix changes nothing.
const ROWS: Row[] = [
  { method: 'get', path: '/health', allowed: 'public' },
  { method: 'get', path: '/metrics', allowed: 'public' },
  { method: 'get', path: '/api/v1/version', allowed: 'public' },
  { method: 'get', path: '/api/v1/features', allowed: 'public' },
  { method: 'get', path: '/api/v1/auth/config', allowed: 'public' },
  { method: 'post', path: '/api/v1/auth/local/login', allowed: 'public' },
  { method: 'post', path: '/api/v1/auth/refresh', allowed: 'public' },
  { method: 'post', path: '/api/v1/auth/logout', allowed: 'public' },
  { method: 'post', path: '/api/v1/auth/callback', allowed: 'public' },
  { method: 'get', path: '/api/v1/auth/me', allowed: PEOPLE },
  { method: 'post', path: '/api/v1/auth/change-password', allowed: PEOPLE },
  { method: 'get', path: '/api/v1/users', allowed: ADMIN },
  { method: 'get', path: '/api/v1/users.csv', allowed: ADMIN },
  { method: 'post', path: '/api/v1/users/local', allowed: ADMIN },
  { method: 'put', path: `/api/v1/users/${someone}/roles`, allowed: ADMIN },
  { method: 'put', path: `/api/v1/users/${someone}/enabled`, allowed: ADMIN },
  { method: 'put', path: `/api/v1/users/${someone}/password`, allowed: ADMIN },
  { method: 'get', path: '/api/v1/service-accounts', allowed: ADMIN },
  { method: 'post', path: '/api/v1/service-accounts', allowed: ADMIN },
  { method: 'put', path: `/api/v1/service-accounts/${sa}/enabled`, allowed: ADMIN },
  { method: 'put', path: `/api/v1/service-accounts/${sa}/allowed-purposes`, allowed: ADMIN },
  { method: 'delete', path: `/api/v1/service-accounts/${sa}`, allowed: ADMIN },
  { method: 'get', path: '/api/v1/audit', allowed: READERS },
  { method: 'get', path: '/api/v1/audit.csv', allowed: READERS },
];

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
    const templates = ROWS.map(
      (r) => `${r.method.toUpperCase()} ${r.path.replace(someone, ':email').replace(sa, ':id')}`,
    );
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

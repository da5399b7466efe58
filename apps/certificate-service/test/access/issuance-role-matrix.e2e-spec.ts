import { startEnrollApp } from '../fixtures/enroll';
import { declaredRoutes } from '../support/declared-routes';
import { createServiceAccount, createUser, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';

type Caller = 'anonymous' | 'no-role' | 'viewer' | 'approver' | 'admin' | 'service-account';
const CALLERS: Caller[] = [
  'anonymous',
  'no-role',
  'viewer',
  'approver',
  'admin',
  'service-account',
];
const READERS: Caller[] = ['viewer', 'approver', 'admin'];
const ADMIN: Caller[] = ['admin'];
const APPROVERS: Caller[] = ['approver', 'admin', 'service-account'];
const ALL_ROLES: Caller[] = ['viewer', 'approver', 'admin', 'service-account'];

interface Row {
  method: 'get' | 'post' | 'put';
  template: string;
  path: string;
  allowed: Caller[] | 'public';
}

const serial = 'MATRIX-NO-SUCH-DEVICE';
const certificate = '0badc0ffee';
const row = (method: Row['method'], template: string, allowed: Row['allowed']): Row => ({
  method,
  template,
  path: template
    .replace(':serial', template.startsWith('/api/v1/certificates') ? certificate : serial)
    .replace(':identity', 'nobody@certsvc.test'),
  allowed,
});

// Write routes get an invalid body: a caller that passes the guard gets 400 or 404, nothing changes.
const ROWS: Row[] = [
  row('get', '/api/v1/issuer', 'public'),
  row('post', '/api/v1/requests/approve', APPROVERS),
  row('post', '/api/v1/requests/check-conflicts', ALL_ROLES),
  row('post', '/api/v1/requests/reject', ADMIN),
  row('get', '/api/v1/license/status', READERS),
  row('post', '/api/v1/license/decommission', ADMIN),
  row('get', '/api/v1/certificates/:serial/bundle', READERS),
  row('post', '/api/v1/certificates/:serial/revoke', ADMIN),
  row('put', '/api/v1/certificates/:serial/key-protection', ADMIN),
  row('post', '/api/v1/devices/:serial/revoke', ADMIN),
  row('post', '/api/v1/devices/:serial/unblock', ADMIN),
  row('post', '/api/v1/users/:identity/revoke-certs', ADMIN),
  row('get', '/api/v1/admin/stats', READERS),
];

describe('Role matrix - approval, issuance, licence, certificates, revocation and stats routes', () => {
  let t: TestApp;
  const tokens = new Map<Caller, string>();
  beforeAll(async () => {
    t = await startEnrollApp();
    const admin = await loginAdmin(t);
    tokens.set('admin', admin.accessToken);
    tokens.set('viewer', (await createUser(t, admin, ['cert-viewer'])).accessToken);
    tokens.set('approver', (await createUser(t, admin, ['cert-approver'])).accessToken);
    tokens.set('no-role', (await createUser(t, admin, [])).accessToken);
    tokens.set('service-account', (await createServiceAccount(t, admin)).token);
  });
  afterAll(() => t.close());

  const cases = ROWS.flatMap((r) =>
    CALLERS.map((caller) => [r.method.toUpperCase(), r.template, caller, r] as const),
  );

  it.each(cases)('%s %s as %s', async (_m, _p, caller, r) => {
    let req = t.http[r.method](r.path);
    const token = tokens.get(caller);
    if (token) req = req.set('authorization', `Bearer ${token}`);
    if (r.method !== 'get') req = req.send({ invalid_field: true });
    const res = await req;
    if (r.allowed === 'public' || r.allowed.includes(caller)) {
      expect([401, 403]).not.toContain(res.status);
      expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status).toBe(caller === 'anonymous' ? 401 : 403);
    }
  });

  it('has every row as a declared route', () => {
    const declared = declaredRoutes(t).map((r) => r.route);
    expect(declared).toEqual(
      expect.arrayContaining(ROWS.map((r) => `${r.method.toUpperCase()} ${r.template}`)),
    );
  });
});

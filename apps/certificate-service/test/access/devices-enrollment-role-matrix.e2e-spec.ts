import { randomUUID } from 'node:crypto';
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
const ALL_ROLES: Caller[] = ['viewer', 'approver', 'admin', 'service-account'];

interface Row {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  template: string;
  /** `public`: no session; `agent`: X-Agent-Secret only, a bearer token never opens it. */
  allowed: Caller[] | 'public' | 'agent';
}

const serial = 'MATRIX-NO-SUCH-DEVICE';
const id = randomUUID();
const row = (method: Row['method'], template: string, allowed: Row['allowed']): Row => ({
  method,
  template,
  path: template.replace(':serial', serial).replace(':purpose', 'k8s').replace(':id', id),
  allowed,
});

// Write routes get an invalid body: a caller that passes the guard gets 400 or 404.
const ROWS: Row[] = [
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

describe('Role matrix - enrollment, agent, requests listing, devices and settings routes', () => {
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
    if (r.allowed === 'agent') {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('agent_unauthorized');
    } else if (r.allowed === 'public' || r.allowed.includes(caller)) {
      expect([401, 403]).not.toContain(res.status);
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

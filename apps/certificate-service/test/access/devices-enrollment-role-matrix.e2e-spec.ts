import { startEnrollApp } from '../fixtures/enroll';
import { declaredRoutes } from '../support/declared-routes';
import { createServiceAccount, createUser, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { CALLERS, type Caller, routeKey } from './matrices/callers';
import { DEVICES_ENROLLMENT_ROWS } from './matrices/devices-enrollment.matrix';

const ROWS = DEVICES_ENROLLMENT_ROWS;

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
    expect(declared).toEqual(expect.arrayContaining(ROWS.map((r) => routeKey(r))));
  });
});

import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { isLevelAllowed, PERMISSION_NAMES } from '../../src/app/access/permissions';
import { listRouteAccess } from '../../src/app/access/route-inventory';
import { keyWith, freshLogin } from '../support/findings-seed';
import { Auth, bearer } from '../support/catalog';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

type Outcome = { status: number; code?: string };

describe('Admin routes - every /api/v1/admin route x caller', () => {
  let t: TestApp;
  let admin: Login;
  const callers: Record<string, Auth | undefined> = {};

  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
    callers['anonymous'] = undefined;
    callers['service key with every global permission'] = await keyWith(
      t,
      admin,
      PERMISSION_NAMES.filter((p) => isLevelAllowed(p, 'global')).map((permission) => ({
        permission,
        level: 'global' as const,
      })),
    );
    callers['signed-in user'] = bearer(await freshLogin(t, admin));
    const disabled = await freshLogin(t, admin, { isAdmin: true });
    callers['disabled administrator'] = bearer(disabled);
    await request(t.url)
      .put(`/api/v1/admin/users/${disabled.userId}/enabled`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ enabled: false })
      .expect(200);
    const deleted = await freshLogin(t, admin, { isAdmin: true });
    callers['deleted administrator'] = bearer(deleted);
    await request(t.url)
      .delete(`/api/v1/admin/users/${deleted.userId}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(204);
    callers['administrator'] = bearer(admin);
  });
  afterAll(() => t.close());

  function call(method: string, path: string, auth: Auth | undefined): Promise<Outcome> {
    const agent = request(t.url);
    const req =
      method === 'GET'
        ? agent.get(path)
        : method === 'DELETE'
          ? agent.delete(path)
          : (method === 'PUT' ? agent.put(path) : agent.post(path)).send({});
    return (auth ? auth.apply(req) : req).then((res) => ({
      status: res.status,
      code: (res.body as { code?: string }).code,
    }));
  }

  const expected: Record<string, (o: Outcome) => boolean> = {
    anonymous: (o) => o.status === 401 && o.code === 'authentication_required',
    'service key with every global permission': (o) =>
      o.status === 403 && o.code === 'access_denied',
    'signed-in user': (o) => o.status === 403 && o.code === 'access_denied',
    'disabled administrator': (o) => o.status === 401 && o.code === 'invalid_token',
    'deleted administrator': (o) => o.status === 401 && o.code === 'invalid_token',
    administrator: (o) => o.status !== 401 && o.status !== 403 && o.status < 500,
  };

  it('only an active administrator with a user token gets past the access check', async () => {
    const routes = listRouteAccess(t.app).filter((r) => r.path.includes('/admin/'));
    const paths = routes.map((r) => `${r.method} ${r.path.replace(/\/+$/, '')}`);
    for (const route of [
      'PUT api/v1/admin/users/:id/enabled',
      'DELETE api/v1/admin/users/:id',
      'GET api/v1/admin/users/:id',
      'DELETE api/v1/admin/installed-plugins/:id',
      'DELETE api/v1/admin/plugin-marketplaces/:id',
    ])
      expect(paths).toContain(route);
    const wrong: string[] = [];
    for (const route of routes) {
      const path = `/${route.path}`.replace(/\/+$/, '').replace(/:\w+/g, () => randomUUID());
      for (const [caller, auth] of Object.entries(callers)) {
        const outcome = await call(route.method, path, auth);
        if (!expected[caller]?.(outcome))
          wrong.push(`${caller}: ${route.method} ${route.path} -> ${JSON.stringify(outcome)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

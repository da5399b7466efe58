import { AuditService } from '../../src/modules/audit/audit.service';
import { createServiceAccount, createUser, loginAdmin, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';

interface Row {
  action: string;
  actor: string;
  actor_kind: string;
  target: string | null;
  details: Record<string, unknown>;
}

describe('Audit - /api/v1/audit (GET) and /api/v1/audit.csv (GET)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const get = (path: string, token = admin.accessToken) =>
    t.http.get(path).set('authorization', `Bearer ${token}`);

  it('records user and service-account administration with actor and details', async () => {
    const user = await createUser(t, admin, ['cert-viewer']);
    const auth = ['authorization', `Bearer ${admin.accessToken}`] as const;
    await t.http
      .put(`/api/v1/users/${user.email}/roles`)
      .set(...auth)
      .send({ roles: ['cert-approver'] })
      .expect(200);
    await t.http
      .put(`/api/v1/users/${user.email}/enabled`)
      .set(...auth)
      .send({ enabled: false })
      .expect(200);
    await t.http
      .put(`/api/v1/users/${user.email}/enabled`)
      .set(...auth)
      .send({ enabled: true })
      .expect(200);
    await t.http
      .put(`/api/v1/users/${user.email}/password`)
      .set(...auth)
      .send({ password: 'another-long-password' })
      .expect(204);
    const sa = await createServiceAccount(t, admin);
    await t.http
      .put(`/api/v1/service-accounts/${sa.id}/enabled`)
      .set(...auth)
      .send({ enabled: false })
      .expect(200);
    await t.http
      .put(`/api/v1/service-accounts/${sa.id}/allowed-purposes`)
      .set(...auth)
      .send({ allowed_purposes: ['vpn'] })
      .expect(200);
    await t.http
      .delete(`/api/v1/service-accounts/${sa.id}`)
      .set(...auth)
      .expect(204);

    const res = await get(`/api/v1/audit?actor=${ADMIN_EMAIL}&limit=500`).expect(200);
    const rows = res.body.items as Row[];
    const forUser = rows.filter((r) => r.target === user.email).map((r) => r.action);
    expect(forUser.reverse()).toEqual([
      'user.create',
      'user.roles_change',
      'user.disable',
      'user.enable',
      'user.password_reset',
    ]);
    const forSa = rows.filter((r) => r.target === sa.id).map((r) => r.action);
    expect(forSa.reverse()).toEqual([
      'service_account.create',
      'service_account.disable',
      'service_account.allowed_purposes_change',
      'service_account.delete',
    ]);
    const roleChange = rows.find(
      (r) => r.action === 'user.roles_change' && r.target === user.email,
    );
    expect(roleChange).toMatchObject({
      actor: ADMIN_EMAIL,
      actor_kind: 'user',
      details: { old: ['cert-viewer'], new: ['cert-approver'] },
    });
  });

  it('labels service-account actors API', async () => {
    const audit = t.app.get(AuditService);
    await audit.record({
      action: 'service_account.enable',
      actor: {
        kind: 'service_account',
        id: '00000000-0000-4000-8000-000000000001',
        name: 'mdm',
        role: 'cert-auto-approver',
        roles: ['cert-auto-approver'],
        allowedPurposes: ['wifi'],
      },
      target: 'probe',
    });
    const res = await get('/api/v1/audit?actor=API').expect(200);
    expect(res.body.items[0]).toMatchObject({
      actor: 'API',
      actor_kind: 'service_account',
      target: 'probe',
    });
  });

  it('filters by action and time and pages', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const res = await get(`/api/v1/audit?action=user.create&since=${since}&limit=1&page=1`).expect(
      200,
    );
    expect(res.body).toMatchObject({ page: 1, limit: 1 });
    expect(res.body.items).toHaveLength(1);
    expect(res.body.total).toBeGreaterThanOrEqual(1);
    const future = await get(
      `/api/v1/audit?since=${new Date(Date.now() + 60_000).toISOString()}`,
    ).expect(200);
    expect(future.body).toMatchObject({ items: [], total: 0 });
    await get('/api/v1/audit?limit=501').expect(400);
    await get('/api/v1/audit?since=yesterday').expect(400);
  });

  it('exports CSV', async () => {
    const res = await get('/api/v1/audit.csv?action=user.create').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, first] = res.text.split('\r\n');
    expect(header).toBe('id,at,action,actor,actor_kind,target,details');
    expect(first).toContain(',user.create,');
  });

  it('is readable by viewers and approvers, not by service accounts or people without roles', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const approver = await createUser(t, admin, ['cert-approver']);
    const nobody = await createUser(t, admin, []);
    const sa = await createServiceAccount(t, admin);
    await get('/api/v1/audit', viewer.accessToken).expect(200);
    await get('/api/v1/audit.csv', approver.accessToken).expect(200);
    await get('/api/v1/audit', nobody.accessToken).expect(403);
    await get('/api/v1/audit', sa.token).expect(403);
    await t.http.get('/api/v1/audit').expect(401);
  });
});

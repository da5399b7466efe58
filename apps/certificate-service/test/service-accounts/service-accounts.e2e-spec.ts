import { createServiceAccount, loginAdmin, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';

describe('Service accounts - /api/v1/service-accounts (GET, POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const auth = () => ['authorization', `Bearer ${admin.accessToken}`] as const;

  it('creates with defaults (never expires, wifi) and shows the token once', async () => {
    const res = await t.http
      .post('/api/v1/service-accounts')
      .set(...auth())
      .send({ name: 'mdm' })
      .expect(201);
    expect(res.body).toMatchObject({
      name: 'mdm',
      enabled: true,
      role: 'cert-auto-approver',
      expires_in_days: 0,
      expires_at: null,
      allowed_purposes: ['wifi'],
      created_by: ADMIN_EMAIL,
    });
    expect(res.body.token).toMatch(/^wca_[A-Za-z0-9_-]{43}$/);
    expect(res.body.token.startsWith(res.body.token_prefix)).toBe(true);
    const list = await t.http
      .get('/api/v1/service-accounts')
      .set(...auth())
      .expect(200);
    const listed = (list.body.items as { id: string }[]).find((a) => a.id === res.body.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('token');
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
  });

  it('computes the expiry from expires_in_days and validates 0..3650 and purposes', async () => {
    const res = await t.http
      .post('/api/v1/service-accounts')
      .set(...auth())
      .send({ name: 'x', expires_in_days: 30 })
      .expect(201);
    const days = (new Date(res.body.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    await t.http
      .post('/api/v1/service-accounts')
      .set(...auth())
      .send({ name: 'x', expires_in_days: 3651 })
      .expect(400);
    await t.http
      .post('/api/v1/service-accounts')
      .set(...auth())
      .send({ name: 'x', expires_in_days: -1 })
      .expect(400);
    await t.http
      .post('/api/v1/service-accounts')
      .set(...auth())
      .send({ name: 'x', allowed_purposes: [] })
      .expect(400);
    await t.http
      .post('/api/v1/service-accounts')
      .set(...auth())
      .send({ name: 'x', allowed_purposes: ['email'] })
      .expect(400);
  });
});

describe('Service account changes - /api/v1/service-accounts/{id} (PUT enabled, PUT allowed-purposes, DELETE)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const auth = () => ['authorization', `Bearer ${admin.accessToken}`] as const;

  it('changes allowed purposes (non-empty) and the enabled flag', async () => {
    const sa = await createServiceAccount(t, admin);
    const res = await t.http
      .put(`/api/v1/service-accounts/${sa.id}/allowed-purposes`)
      .set(...auth())
      .send({ allowed_purposes: ['ssh', 'k8s'] })
      .expect(200);
    expect(res.body.allowed_purposes).toEqual(['ssh', 'k8s']);
    await t.http
      .put(`/api/v1/service-accounts/${sa.id}/allowed-purposes`)
      .set(...auth())
      .send({ allowed_purposes: [] })
      .expect(400);
    const off = await t.http
      .put(`/api/v1/service-accounts/${sa.id}/enabled`)
      .set(...auth())
      .send({ enabled: false })
      .expect(200);
    expect(off.body.enabled).toBe(false);
  });

  it('deletes; an unknown or malformed id is 404', async () => {
    const sa = await createServiceAccount(t, admin);
    await t.http
      .delete(`/api/v1/service-accounts/${sa.id}`)
      .set(...auth())
      .expect(204);
    const again = await t.http
      .delete(`/api/v1/service-accounts/${sa.id}`)
      .set(...auth())
      .expect(404);
    expect(again.body.code).toBe('service_account_not_found');
    await t.http
      .put('/api/v1/service-accounts/not-a-uuid/enabled')
      .set(...auth())
      .send({ enabled: true })
      .expect(404);
  });
});

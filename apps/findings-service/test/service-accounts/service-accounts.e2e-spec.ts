import request from 'supertest';
import { waitFor } from '@platform/testing';
import {
  freshServiceAccount,
  freshUser,
  grant,
  login,
  loginAdmin,
  Login,
} from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

describe('Service accounts - /api/v1/admin/service-accounts (POST, GET, DELETE)', () => {
  let t: TestApp;
  let admin: Login;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const asAdmin = (req: request.Test) => req.set('Authorization', `Bearer ${admin.token}`);

  it('creates an account and shows the key once, storing only prefix and hash', async () => {
    const res = await asAdmin(request(t.url).post('/api/v1/admin/service-accounts'))
      .send({ name: 'ci' })
      .expect(201);
    const { api_key, key_prefix, id } = res.body.data;
    expect(api_key).toMatch(/^sa_[0-9a-f]{8}_[A-Za-z0-9_-]{43,}$/);
    expect(api_key.slice(3, 11)).toBe(key_prefix);
    const shown = await asAdmin(request(t.url).get(`/api/v1/admin/service-accounts/${id}`)).expect(
      200,
    );
    expect(shown.body.data.api_key).toBeUndefined();
    const listed = await asAdmin(request(t.url).get('/api/v1/admin/service-accounts')).expect(200);
    expect(listed.body.data.map((a: { id: string }) => a.id)).toContain(id);
    const rows: { key_hash: string; key_prefix: string }[] = await t.app
      .get(await import('typeorm').then((m) => m.DataSource))
      .query('SELECT key_hash, key_prefix FROM service_accounts WHERE id = $1', [id]);
    expect(rows[0].key_prefix).toBe(key_prefix);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(api_key.slice(12));
  });

  it('accepts the key as X-API-Key and as Authorization: ApiKey, and records last use', async () => {
    const sa = await freshServiceAccount(t, admin);
    await grant(t, admin, sa.id, { permission: 'upload_report', level: 'global' }).expect(201);
    const viaHeader = await request(t.url)
      .get('/api/v1/test-probe/upload')
      .set('X-API-Key', sa.key)
      .expect(200);
    expect(viaHeader.body.data).toEqual({ principal: 'service_account', id: sa.id });
    await request(t.url)
      .get('/api/v1/test-probe/upload')
      .set('Authorization', `ApiKey ${sa.key}`)
      .expect(200);
    const bearer = await request(t.url)
      .get('/api/v1/test-probe/upload')
      .set('Authorization', `Bearer ${sa.key}`)
      .expect(401);
    expect(bearer.body.code).toBe('invalid_token');
    // Written in the background: the authenticated request does not wait for it.
    await waitFor(async () => {
      const shown = await asAdmin(
        request(t.url).get(`/api/v1/admin/service-accounts/${sa.id}`),
      ).expect(200);
      expect(shown.body.data.last_used_at).not.toBeNull();
    });
  });

  it('refuses unknown, malformed and revoked keys (401)', async () => {
    const sa = await freshServiceAccount(t, admin);
    await grant(t, admin, sa.id, { permission: 'upload_report', level: 'global' }).expect(201);
    const tampered = `${sa.key.slice(0, -2)}xx`;
    for (const key of [tampered, 'sa_00000000_' + 'A'.repeat(43), 'garbage']) {
      const res = await request(t.url)
        .get('/api/v1/test-probe/upload')
        .set('X-API-Key', key)
        .expect(401);
      expect(res.body.code).toBe('invalid_api_key');
    }
    await asAdmin(request(t.url).delete(`/api/v1/admin/service-accounts/${sa.id}`)).expect(204);
    await request(t.url).get('/api/v1/test-probe/upload').set('X-API-Key', sa.key).expect(401);
    const shown = await asAdmin(
      request(t.url).get(`/api/v1/admin/service-accounts/${sa.id}`),
    ).expect(200);
    expect(shown.body.data.revoked_at).not.toBeNull();
    await asAdmin(request(t.url).delete(`/api/v1/admin/service-accounts/${sa.id}`)).expect(204);
  });

  it('is for administrators only', async () => {
    const user = await freshUser(t, admin);
    const s = await login(t, user.email, user.password);
    const res = await request(t.url)
      .get('/api/v1/admin/service-accounts')
      .set('Authorization', `Bearer ${s.token}`)
      .expect(403);
    expect(res.body.code).toBe('access_denied');
    const sa = await freshServiceAccount(t, admin);
    await request(t.url).get('/api/v1/admin/service-accounts').set('X-API-Key', sa.key).expect(403);
    await request(t.url).get('/api/v1/admin/service-accounts').expect(401);
  });

  it('answers 404 for an unknown account and for a malformed id', async () => {
    const missing = await asAdmin(
      request(t.url).get('/api/v1/admin/service-accounts/00000000-0000-4000-8000-000000000000'),
    ).expect(404);
    expect(missing.body.code).toBe('service_account_not_found');
    const bad = await asAdmin(
      request(t.url).get('/api/v1/admin/service-accounts/not-a-uuid'),
    ).expect(404);
    expect(bad.body.code).toBe('not_found');
  });
});

import { DataSource } from 'typeorm';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { startTestApp, type TestApp } from '../support/test-app';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import { createEndpoint, drainUntil, startWebhookApp, TEST_WEBHOOK_KEY } from './webhook-app';
import { WebhookReceiver } from './webhook-receiver';

describe('Webhooks - /api/v1/admin/webhooks (GET, POST, PUT, DELETE, enabled, test, deliveries)', () => {
  let t: TestApp;
  let admin: TestUser;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startWebhookApp();
    admin = await loginAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const api = () => ({
    get: (path: string) => t.http.get(path).set(...bearer(admin.accessToken)),
    post: (path: string, body: object = {}) =>
      t.http
        .post(path)
        .set(...bearer(admin.accessToken))
        .send(body),
    put: (path: string, body: object) =>
      t.http
        .put(path)
        .set(...bearer(admin.accessToken))
        .send(body),
    delete: (path: string) => t.http.delete(path).set(...bearer(admin.accessToken)),
  });

  it('creates an endpoint: the secret is shown once, sealed at rest, never listed or logged; changes audited', async () => {
    const created = await api()
      .post('/api/v1/admin/webhooks', {
        url: receiver.url('/crud'),
        description: 'SIEM',
        event_types: ['certificate.issued', 'certificate.revoked'],
      })
      .expect(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      url: receiver.url('/crud'),
      description: 'SIEM',
      event_types: ['certificate.issued', 'certificate.revoked'],
      enabled: true,
    });
    const id = created.body.id as string;
    const list = await api().get('/api/v1/admin/webhooks').expect(200);
    const listed = (list.body.items as Record<string, unknown>[]).find((w) => w.id === id)!;
    expect(listed).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const [row] = (await t.app
      .get(DataSource)
      .query(`SELECT secret_sealed FROM webhook_endpoints WHERE id = $1`, [id])) as {
      secret_sealed: string;
    }[];
    expect(row.secret_sealed).toMatch(/^v1:/);
    expect(row.secret_sealed).not.toContain(secret);

    // A given secret; an update that sets a new one shows it once more, others never.
    const given = 'a-given-secret-of-enough-length-123';
    const updated = await api()
      .put(`/api/v1/admin/webhooks/${id}`, { description: 'SIEM 2', secret: given })
      .expect(200);
    expect(updated.body).toMatchObject({ description: 'SIEM 2', secret: given });
    const plain = await api().put(`/api/v1/admin/webhooks/${id}`, { event_types: [] }).expect(200);
    expect(plain.body).not.toHaveProperty('secret');
    expect(plain.body.event_types).toEqual([]);

    await api().put(`/api/v1/admin/webhooks/${id}/enabled`, { enabled: false }).expect(200);
    const audit = await api().get('/api/v1/audit?limit=50').expect(200);
    const actions = (audit.body.items as { action: string; details: unknown }[])
      .filter((a) => a.action.startsWith('webhook.'))
      .map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['webhook.create', 'webhook.update', 'webhook.disable']),
    );
    expect(JSON.stringify(audit.body)).not.toContain(secret);
    expect(JSON.stringify(audit.body)).not.toContain(given);
    expect(JSON.stringify(t.logs.lines())).not.toContain(secret);
    expect(JSON.stringify(t.logs.lines())).not.toContain(given);

    await api().delete(`/api/v1/admin/webhooks/${id}`).expect(204);
    expect((await api().delete(`/api/v1/admin/webhooks/${id}`).expect(404)).body.code).toBe(
      'webhook_not_found',
    );
  });

  it('refuses bad input with clear codes (never 500)', async () => {
    const bad = [
      { url: 'not a url' },
      { url: receiver.url('/x'), event_types: ['nope'] },
      { url: receiver.url('/x'), secret: 'short' },
      { url: receiver.url('/x'), secret: 'has spaces in it but is long enough' },
      { url: receiver.url('/x'), enabled: 'yes' },
      { url: 'x'.repeat(3000) },
    ];
    for (const body of bad) {
      const res = await api().post('/api/v1/admin/webhooks', body);
      expect({ body, status: res.status, code: res.body.code }).toMatchObject({ status: 400 });
    }
    const res = await api()
      .post('/api/v1/admin/webhooks', { url: 'ftp://example.com/x' })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'webhook_url_refused',
      message: expect.stringContaining('(scheme_not_allowed: '),
    });
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      await api().get(`/api/v1/admin/webhooks/${id}/deliveries`).expect(404);
      await api().put(`/api/v1/admin/webhooks/${id}`, {}).expect(404);
      await api().put(`/api/v1/admin/webhooks/${id}/enabled`, { enabled: true }).expect(404);
      await api().post(`/api/v1/admin/webhooks/${id}/test`).expect(404);
    }
    const { id } = await createEndpoint(t, admin, { url: receiver.url('/q') });
    await api().get(`/api/v1/admin/webhooks/${id}/deliveries?limit=0`).expect(400);
    await api().get(`/api/v1/admin/webhooks/${id}/deliveries?page=x`).expect(400);
    await api().put(`/api/v1/admin/webhooks/${id}/enabled`, {}).expect(400);
  });

  it('queues a signed test delivery, shows it in the paged delivery log; a disabled endpoint refuses', async () => {
    const { id, secret } = await createEndpoint(t, admin, {
      url: receiver.url('/test'),
      event_types: ['device.blocked'],
    });
    receiver.secret('/test', secret);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const queued = await api().post(`/api/v1/admin/webhooks/${id}/test`).expect(202);
      ids.push(queued.body.delivery_id as string);
    }
    await drainUntil(t, () => receiver.of('/test').length === 3);
    expect(receiver.of('/test').map((r) => r.event)).toEqual([
      'webhook.test',
      'webhook.test',
      'webhook.test',
    ]);
    expect(receiver.of('/test').every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.of('/test').map((r) => r.delivery))).toEqual(new Set(ids));
    const page1 = await api()
      .get(`/api/v1/admin/webhooks/${id}/deliveries?limit=2&page=1`)
      .expect(200);
    const page2 = await api()
      .get(`/api/v1/admin/webhooks/${id}/deliveries?limit=2&page=2`)
      .expect(200);
    expect(page1.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page1.body.items).toHaveLength(2);
    expect(page2.body.items).toHaveLength(1);
    expect(page1.body.items[0]).toMatchObject({
      event_type: 'webhook.test',
      status: 'delivered',
      attempts: 1,
      last_response_code: 200,
      last_error: null,
    });
    await api().put(`/api/v1/admin/webhooks/${id}/enabled`, { enabled: false }).expect(200);
    expect((await api().post(`/api/v1/admin/webhooks/${id}/test`).expect(409)).body.code).toBe(
      'webhook_disabled',
    );
  });

  it('is cert-admin only, reading included', async () => {
    const { id } = await createEndpoint(t, admin, { url: receiver.url('/roles') });
    for (const role of ['cert-approver', 'cert-viewer'] as const) {
      const user = await createUser(t, admin, [role]);
      await t.http
        .get('/api/v1/admin/webhooks')
        .set(...bearer(user.accessToken))
        .expect(403);
      await t.http
        .get(`/api/v1/admin/webhooks/${id}/deliveries`)
        .set(...bearer(user.accessToken))
        .expect(403);
    }
    await t.http.get('/api/v1/admin/webhooks').expect(401);
  });
});

describe('Webhooks - switched off (default), and without CERTSVC_WEBHOOK_ENC_KEY', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('answers 404 webhooks_disabled on every webhook route, to every caller', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const calls = [
      t.http.get('/api/v1/admin/webhooks'),
      t.http.post('/api/v1/admin/webhooks').send({ url: 'https://hooks.example.com/x' }),
      t.http.put(`/api/v1/admin/webhooks/${id}`).send({}),
      t.http.delete(`/api/v1/admin/webhooks/${id}`),
      t.http.put(`/api/v1/admin/webhooks/${id}/enabled`).send({ enabled: true }),
      t.http.post(`/api/v1/admin/webhooks/${id}/test`),
      t.http.get(`/api/v1/admin/webhooks/${id}/deliveries`),
    ];
    for (const call of calls) {
      const res = await call.set(...bearer(admin.accessToken));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('webhooks_disabled');
    }
    const viewer = await createUser(t, admin, ['cert-viewer']);
    await t.http
      .get('/api/v1/admin/webhooks')
      .set(...bearer(viewer.accessToken))
      .expect(404);
    const anonymous = await t.http.get('/api/v1/admin/webhooks').expect(404);
    expect(anonymous.body.code).toBe('webhooks_disabled');
  });

  it('cannot seal a corp-ownership webhook secret without the key (409), and stores nothing', async () => {
    const res = await t.http
      .put('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .send({
        policy: 'webhook',
        webhook_url: 'https://owner.example.com/check',
        webhook_secret: 'a-secret-that-is-long-enough-0123',
      })
      .expect(409);
    expect(res.body.code).toBe('webhook_encryption_key_missing');
    const policy = await t.http
      .get('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(policy.body).toMatchObject({ policy: 'off', webhook_secret_set: false });
  });

  it('refuses to start with webhooks switched on and no key (outside dev mode)', () => {
    expect(() =>
      loadCertsvcConfig({
        CERTSVC_DATABASE_URL: 'postgres://unused',
        CERTSVC_JWT_SECRET: 'x'.repeat(40),
        CERTSVC_CA_KEY_ENC_KEY: '42'.repeat(32),
        CERTSVC_WEBHOOKS_ENABLED: 'true',
      }),
    ).toThrow(/CERTSVC_WEBHOOK_ENC_KEY is required with CERTSVC_WEBHOOKS_ENABLED=true/);
    expect(() =>
      loadCertsvcConfig({
        CERTSVC_DATABASE_URL: 'postgres://unused',
        CERTSVC_JWT_SECRET: 'x'.repeat(40),
        CERTSVC_CA_KEY_ENC_KEY: '42'.repeat(32),
        CERTSVC_WEBHOOK_ENC_KEY: 'short',
      }),
    ).toThrow(/CERTSVC_WEBHOOK_ENC_KEY must be 32 bytes/);
  });
});

describe('Webhooks - request-forgery guard at save', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp({
      env: { CERTSVC_WEBHOOKS_ENABLED: 'true', CERTSVC_WEBHOOK_ENC_KEY: TEST_WEBHOOK_KEY },
    });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('refuses http, loopback, link-local, metadata and credentials by default', async () => {
    const cases: [string, string][] = [
      ['http://hooks.example.com/x', 'scheme_not_allowed'],
      ['https://127.0.0.1/x', 'address_not_allowed'],
      ['https://0x7f000001/x', 'address_not_allowed'],
      ['https://[::1]/x', 'address_not_allowed'],
      ['https://169.254.169.254/latest/meta-data', 'address_not_allowed'],
      ['https://10.0.0.8/x', 'address_not_allowed'],
      ['https://localhost/x', 'host_forbidden'],
      ['https://metadata.google.internal/x', 'host_forbidden'],
      ['https://user:pw@hooks.example.com/x', 'invalid_url'],
    ];
    for (const [url, reason] of cases) {
      const res = await t.http
        .post('/api/v1/admin/webhooks')
        .set(...bearer(admin.accessToken))
        .send({ url });
      expect({ url, status: res.status, body: res.body }).toMatchObject({
        status: 400,
        body: { code: 'webhook_url_refused', message: expect.stringContaining(`(${reason}: `) },
      });
    }
    await t.http
      .post('/api/v1/admin/webhooks')
      .set(...bearer(admin.accessToken))
      .send({ url: 'https://hooks.example.com/x' })
      .expect(201);
  });
});

import request from 'supertest';
import { loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const UNSTORABLE = 'must not contain U+0000 or unpaired UTF-16 surrogates';

interface Detail {
  field: string;
  problems: string[];
}

function details(res: request.Response): Detail[] {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('invalid_request');
  return res.body.details as Detail[];
}

describe('Hostile input - fields, query and path parameters', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const get = (path: string) =>
    http().get(path).set('authorization', `Bearer ${admin.accessToken}`);

  it('refuses NUL and unpaired surrogates in the login body naming the field', async () => {
    const nul = await http()
      .post('/api/v1/auth/local/login')
      .send({ email: 'admin\u0000@certsvc.test', password: 'x' });
    expect(details(nul)).toEqual([{ field: 'email', problems: [UNSTORABLE] }]);
    const surrogate = await http()
      .post('/api/v1/auth/local/login')
      .set('content-type', 'application/json')
      .send('{"email":"a\\ud800@b.cd","password":"x"}');
    expect(details(surrogate)).toEqual([{ field: 'email', problems: [UNSTORABLE] }]);
  });

  it('refuses NUL on the unauthenticated enroll routes', async () => {
    for (const path of ['/api/v1/enroll/purposes', '/api/v1/enroll/purpose-request']) {
      const res = await http()
        .post(path)
        .send({ serial: 'PF3XYZ12', enrollment_token: 'tok\u0000en', purpose: 'wifi' });
      expect(details(res)).toEqual([{ field: 'enrollment_token', problems: [UNSTORABLE] }]);
    }
  });

  it('refuses NUL in query and path parameters', async () => {
    expect(details(await get('/api/v1/devices?serial=a%00b'))).toEqual([
      { field: 'serial', problems: [UNSTORABLE] },
    ]);
    expect(details(await get('/api/v1/devices/a%00b/purposes'))).toEqual([
      { field: 'serial', problems: [UNSTORABLE] },
    ]);
  });

  it.each([
    ['/api/v1/devices?page=1e20', 'page'],
    ['/api/v1/audit?page=99999999999999999999', 'page'],
    ['/api/v1/audit?limit=99999999999999999999', 'limit'],
    ['/api/v1/requests?page=100001', 'page'],
    ['/api/v1/requests?limit=2.5', 'limit'],
    ['/api/v1/admin/purpose-requests?page=-1', 'page'],
    ['/api/v1/audit?since=-200000-01-01T00:00:00Z', 'since'],
    ['/api/v1/requests?until=%2B275760-09-13T00:00:00Z', 'until'],
  ])('refuses %s naming %s', async (path, field) => {
    expect(details(await get(path)).map((d) => d.field)).toEqual([field]);
  });

  it('accepts the bounds themselves', async () => {
    await get('/api/v1/audit?page=100000&limit=500&since=2024-01-01T00:00:00Z').expect(200);
  });

  it('refuses explicit null on non-nullable fields and changes nothing', async () => {
    const put = (body: Record<string, unknown>) =>
      http()
        .put('/api/v1/settings/sa-auto-approve')
        .set('authorization', `Bearer ${admin.accessToken}`)
        .send(body);
    await put({ policy: 'off', webhook_timeout_ms: 4000 }).expect(200);
    expect(details(await put({ policy: 'allowlist', webhook_timeout_ms: null }))).toEqual([
      {
        field: 'webhook_timeout_ms',
        problems: expect.arrayContaining(['webhook_timeout_ms must not be null']),
      },
    ]);
    const read = await get('/api/v1/settings/sa-auto-approve').expect(200);
    expect(read.body).toMatchObject({ policy: 'off', webhook_timeout_ms: 4000 });
    const sa = await http()
      .post('/api/v1/service-accounts')
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ name: 'sa-null', expires_in_days: null });
    expect(details(sa).map((d) => d.field)).toEqual(['expires_in_days']);
  });
});

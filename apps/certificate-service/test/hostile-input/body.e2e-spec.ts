import request from 'supertest';
import { loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

describe('Hostile input - JSON body shape at the reject step', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const postJson = (path: string, raw: string, token?: string) => {
    const req = request(t.app.getHttpServer()).post(path).set('content-type', 'application/json');
    return (token ? req.set('authorization', `Bearer ${token}`) : req).send(raw);
  };

  it('refuses a body nested 10 000 deep on the unauthenticated login with 400', async () => {
    const res = await postJson('/api/v1/auth/local/login', `{"email":${nested(10_000)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'invalid_request',
      message: 'request body is nested deeper than 64 levels',
    });
  });

  it('refuses a 100 000-element array on the unauthenticated enroll before validating it', async () => {
    const wide = JSON.stringify({
      serial: 'SN-WIDE',
      csr: Array.from({ length: 100_000 }, () => 0),
    });
    const res = await postJson('/api/v1/enroll', wide);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'invalid_request',
      message: 'an object or array in the request body has more than 10000 members',
    });
  });

  it('refuses a __proto__ key and malformed JSON with 400 invalid_request', async () => {
    const proto = await postJson(
      '/api/v1/auth/local/login',
      '{"email":"a@b.cd","password":"x","__proto__":{"role":"cert-admin"}}',
    ).expect(400);
    expect(proto.body).toEqual({
      code: 'invalid_request',
      message: 'request body holds the forbidden key __proto__',
    });
    const malformed = await postJson('/api/v1/auth/local/login', '{"email":').expect(400);
    expect(malformed.body.code).toBe('invalid_request');
  });

  it('reads an empty JSON body on action routes as {} (no 400 for the body)', async () => {
    const revoke = await postJson('/api/v1/certificates/0abc/revoke', '', admin.accessToken);
    expect(revoke.status).toBe(404);
    expect(revoke.body.code).toBe('certificate_not_found');
    const unblock = await postJson('/api/v1/devices/PF3XYZ12/unblock', '', admin.accessToken);
    expect(unblock.status).toBe(404);
    expect(unblock.body.code).toBe('device_not_found');
    const logout = await postJson('/api/v1/auth/logout', '', admin.accessToken);
    expect(logout.status).toBeLessThan(300);
  });

  it('still names the required fields when an empty body reaches a route that needs them', async () => {
    const res = await postJson('/api/v1/auth/local/login', '').expect(400);
    const fields = (res.body.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['email', 'password']);
  });

  it('answers 415 in the envelope for text/plain or no content type, and counts it', async () => {
    for (const type of ['text/plain', '']) {
      const req = request(t.app.getHttpServer()).post('/api/v1/auth/local/login');
      const res = await (type ? req.set('content-type', type) : req).send(
        Buffer.from('{"email":"a@b.cd","password":"x"}'),
      );
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        code: 'unsupported_media_type',
        message: 'request body must be application/json',
      });
    }
    const metrics = (await request(t.app.getHttpServer()).get('/metrics')).text;
    expect(metrics).toContain(
      'certsvc_content_type_violations_total{route="/api/v1/auth/local/login",rung="reject"} 2',
    );
  });
});

describe('Hostile input - request line', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers a URL over 16 KiB with 431 in the envelope', async () => {
    const res = await request(t.app.getHttpServer()).get(
      `/api/v1/version?pad=${'u'.repeat(20_000)}`,
    );
    expect(res.status).toBe(431);
    expect(res.body).toEqual({
      code: 'headers_too_large',
      message: 'request line and headers exceed 16 KiB',
    });
  });
});

describe('Hostile input - mislabelled bodies at the observe step', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CERTSVC_CONTENT_TYPE_ENFORCEMENT: 'observe' } });
  });
  afterAll(() => t.close());

  it('counts a JSON body sent as text/plain and reads it as JSON', async () => {
    const res = await request(t.app.getHttpServer())
      .post('/api/v1/auth/local/login')
      .set('content-type', 'text/plain')
      .send('{"email":"nobody@certsvc.test","password":"wrong-password"}');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_credentials');
    const metrics = (await request(t.app.getHttpServer()).get('/metrics')).text;
    expect(metrics).toContain(
      'certsvc_content_type_violations_total{route="/api/v1/auth/local/login",rung="observe"} 1',
    );
  });

  it('answers 400 when the mislabelled body is not JSON, and bounds its depth', async () => {
    const http = request(t.app.getHttpServer());
    const text = await http
      .post('/api/v1/auth/local/login')
      .set('content-type', 'text/plain')
      .send('hello');
    expect(text.status).toBe(400);
    expect(text.body.code).toBe('invalid_request');
    const deep = await request(t.app.getHttpServer())
      .post('/api/v1/auth/local/login')
      .set('content-type', 'text/plain')
      .send(nested(10_000));
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe('request body is nested deeper than 64 levels');
  });
});

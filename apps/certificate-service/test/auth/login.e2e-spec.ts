import { createUser, loginAdmin, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp } from '../support/test-app';

describe('Login - /api/v1/auth/local/login (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('answers tokens and the user, and sets the refresh token as an httpOnly cookie', async () => {
    const res = await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD })
      .expect(200);
    expect(res.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      user: { email: ADMIN_EMAIL, role: 'cert-admin', roles: ['cert-admin'] },
    });
    expect(res.body.access_token.split('.')).toHaveLength(3);
    expect(res.body.refresh_token).toMatch(/^rt_/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`certsvc_refresh_token=${res.body.refresh_token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Secure/);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const wrong = await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: ADMIN_EMAIL, password: 'nope-nope-nope' })
      .expect(401);
    const unknown = await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: 'ghost@certsvc.test', password: 'nope-nope-nope' })
      .expect(401);
    expect(wrong.body).toEqual({
      code: 'invalid_credentials',
      message: 'invalid email or password',
    });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a disabled user', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    await t.http
      .put(`/api/v1/users/${viewer.email}/enabled`)
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ enabled: false })
      .expect(200);
    await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: viewer.email, password: viewer.password })
      .expect(401);
  });

  it('answers 400 invalid_request with field details for a malformed body', async () => {
    const res = await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: 'not-an-email', extra: 1 })
      .expect(400);
    expect(res.body.code).toBe('invalid_request');
    const fields = (res.body.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['email', 'extra', 'password']);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await t.http
      .post('/api/v1/auth/local/login')
      .set('content-type', 'text/plain')
      .send('email=a')
      .expect(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });
});

describe('Login - /api/v1/auth/local/login (POST) rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { CERTSVC_LOGIN_RATE_LIMIT_PER_MINUTE: '3', CERTSVC_TRUSTED_PROXIES: '127.0.0.1' },
    });
  });
  afterAll(() => t.close());

  it('answers 429 rate_limited with Retry-After after the per-address limit', async () => {
    const attempt = (ip: string) =>
      t.http
        .post('/api/v1/auth/local/login')
        .set('x-forwarded-for', ip)
        .send({ email: 'x@certsvc.test', password: 'wrong-password' });
    for (let i = 0; i < 3; i++) expect((await attempt('198.51.100.1')).status).toBe(401);
    const limited = await attempt('198.51.100.1');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt('198.51.100.2')).status).toBe(401);
  });
});

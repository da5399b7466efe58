import request from 'supertest';
import { freshUser, login, loginAdmin } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

describe('Login - /api/v1/auth/local/login (POST)', () => {
  let t: TestApp;
  const bootstrapEmail = `boss-${Date.now()}@example.test`;

  beforeAll(async () => {
    t = await startTestApp({
      BOOTSTRAP_ADMIN_EMAILS: `other@example.test, ${bootstrapEmail.toUpperCase()}`,
    });
  });
  afterAll(() => t.close());

  it('returns a bearer token, the user and a protected refresh cookie', async () => {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    const res = await request(t.url)
      .post('/api/v1/auth/local/login')
      .send({ login: user.email.toUpperCase(), password: user.password })
      .expect(200);
    expect(res.body.data).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      user: { id: user.id, email: user.email, is_admin: false },
    });
    expect(res.body.data.access_token.split('.')).toHaveLength(3);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('findsvc_refresh='),
    );
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth/);
    expect(cookie).toMatch(/Max-Age=1209600/);
  });

  it('refuses a wrong password and an unknown login alike (401)', async () => {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    const wrong = await request(t.url)
      .post('/api/v1/auth/local/login')
      .send({ login: user.email, password: 'not-the-password' })
      .expect(401);
    const unknown = await request(t.url)
      .post('/api/v1/auth/local/login')
      .send({ login: 'nobody@example.test', password: 'whatever-password' })
      .expect(401);
    expect(wrong.body).toEqual({ error: 'invalid login or password', code: 'invalid_credentials' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('rejects a malformed body with field details (400)', async () => {
    const res = await request(t.url)
      .post('/api/v1/auth/local/login')
      .send({ login: 'x' })
      .expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'password' })]),
    );
  });

  it('makes BOOTSTRAP_ADMIN_EMAILS administrators when they sign in', async () => {
    const admin = await loginAdmin(t);
    const created = await request(t.url)
      .post('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: bootstrapEmail, password: 'bootstrap-password-1' })
      .expect(201);
    expect(created.body.data.is_admin).toBe(true);
    const session = await login(t, bootstrapEmail, 'bootstrap-password-1');
    const me = await request(t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${session.token}`)
      .expect(200);
    expect(me.body.data.roles).toEqual(['user', 'admin']);
  });

  it('seeds LOCAL_ADMIN_EMAIL as an administrator', async () => {
    const admin = await loginAdmin(t);
    const me = await request(t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(me.body.data.user.is_admin).toBe(true);
  });
});

describe('Login - /api/v1/auth/local/login (POST) with LOCAL_AUTH_ENABLED=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOCAL_AUTH_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('answers 404 local_auth_disabled', async () => {
    const res = await request(t.url)
      .post('/api/v1/auth/local/login')
      .send({ login: 'a@example.test', password: 'whatever-password' })
      .expect(404);
    expect(res.body.code).toBe('local_auth_disabled');
  });
});

import { createUser, loginAdmin, uniqueEmail, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';

describe('Users - /api/v1/users (GET) and /api/v1/users.csv (GET)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('lists users with roles', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const res = await t.http
      .get('/api/v1/users')
      .set('authorization', `Bearer ${admin.accessToken}`)
      .expect(200);
    const items = res.body.items as { email: string }[];
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          email: ADMIN_EMAIL,
          role: 'cert-admin',
          roles: ['cert-admin'],
          local: true,
          enabled: true,
        }),
        expect.objectContaining({ email: viewer.email, role: 'cert-viewer' }),
      ]),
    );
  });

  it('exports CSV', async () => {
    const res = await t.http
      .get('/api/v1/users.csv')
      .set('authorization', `Bearer ${admin.accessToken}`)
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = res.text.trim().split('\r\n');
    expect(header).toBe('email,local,enabled,role,roles,created_at,last_login_at');
    expect(rows.some((r) => r.startsWith(`${ADMIN_EMAIL},true,true,cert-admin,cert-admin,`))).toBe(
      true,
    );
  });
});

describe('Create local user - /api/v1/users/local (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) =>
    t.http
      .post('/api/v1/users/local')
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send(body);

  it('creates a user with a lower-cased email; a duplicate is 409', async () => {
    const email = uniqueEmail('Mixed').replace('mixed', 'MiXeD');
    const res = await create({
      email,
      password: 'long-enough-password',
      roles: ['cert-approver'],
    }).expect(201);
    expect(res.body).toMatchObject({
      email: email.toLowerCase(),
      role: 'cert-approver',
      local: true,
    });
    const dup = await create({
      email: email.toLowerCase(),
      password: 'long-enough-password',
    }).expect(409);
    expect(dup.body.code).toBe('user_exists');
  });

  it('refuses cert-auto-approver for a person and unknown roles', async () => {
    const res = await create({
      email: uniqueEmail(),
      password: 'long-enough-password',
      roles: ['cert-auto-approver'],
    }).expect(400);
    expect(res.body.code).toBe('invalid_request');
    await create({
      email: uniqueEmail(),
      password: 'long-enough-password',
      roles: ['root'],
    }).expect(400);
  });
});

describe('Roles - /api/v1/users/{email}/roles (PUT)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const setRoles = (email: string, roles: string[]) =>
    t.http
      .put(`/api/v1/users/${encodeURIComponent(email)}/roles`)
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ roles });

  it('replaces roles, effective on the next request', async () => {
    const user = await createUser(t, admin, ['cert-viewer']);
    await t.http
      .get('/api/v1/users')
      .set('authorization', `Bearer ${user.accessToken}`)
      .expect(403);
    const res = await setRoles(user.email, ['cert-admin', 'cert-viewer']).expect(200);
    expect(res.body).toMatchObject({ role: 'cert-admin', roles: ['cert-admin', 'cert-viewer'] });
    await t.http
      .get('/api/v1/users')
      .set('authorization', `Bearer ${user.accessToken}`)
      .expect(200);
    await setRoles(user.email, []).expect(200);
  });

  it('refuses to remove the last cert-admin (409) and 404 for an unknown user', async () => {
    const res = await setRoles(ADMIN_EMAIL, ['cert-viewer']).expect(409);
    expect(res.body.code).toBe('last_admin');
    await setRoles('ghost@certsvc.test', ['cert-viewer']).expect(404);
  });
});

describe('Enabled - /api/v1/users/{email}/enabled (PUT)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const setEnabled = (email: string, enabled: boolean) =>
    t.http
      .put(`/api/v1/users/${email}/enabled`)
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ enabled });

  it('disabling ends access at once and revokes refresh tokens; enabling restores sign-in', async () => {
    const user = await createUser(t, admin, ['cert-viewer']);
    await setEnabled(user.email, false).expect(200);
    await t.http
      .get('/api/v1/audit')
      .set('authorization', `Bearer ${user.accessToken}`)
      .expect(401);
    await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: user.refreshToken })
      .expect(401);
    await setEnabled(user.email, true).expect(200);
    await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: user.email, password: user.password })
      .expect(200);
  });

  it('refuses to disable the last cert-admin', async () => {
    expect((await setEnabled(ADMIN_EMAIL, false).expect(409)).body.code).toBe('last_admin');
  });
});

describe('Password reset - /api/v1/users/{email}/password (PUT)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it("sets a new password and ends the user's sessions", async () => {
    const user = await createUser(t, admin, []);
    await t.http
      .put(`/api/v1/users/${user.email}/password`)
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ password: 'reset-by-the-admin-1' })
      .expect(204);
    await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: user.refreshToken })
      .expect(401);
    await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: user.email, password: 'reset-by-the-admin-1' })
      .expect(200);
  });
});

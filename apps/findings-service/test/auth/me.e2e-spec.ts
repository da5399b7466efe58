import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { freshServiceAccount, freshUser, login, loginAdmin } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

describe('Me - /api/v1/auth/me (GET)', () => {
  let t: TestApp;
  const jwt = new JwtService();
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  function me(authorization?: string) {
    const req = request(t.url).get('/api/v1/auth/me');
    return authorization ? req.set('Authorization', authorization) : req;
  }

  function sign(
    payload: object,
    options: { secret?: string; expiresIn?: number; audience?: string } = {},
  ) {
    return jwt.sign(payload, {
      secret: options.secret ?? t.config.jwt.secret,
      algorithm: 'HS256',
      issuer: 'findings-service',
      audience: options.audience ?? 'findings-service/api',
      expiresIn: options.expiresIn ?? 60,
    });
  }

  it('returns the user, roles and effective permissions', async () => {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    const s = await login(t, user.email, user.password);
    const res = await me(`Bearer ${s.token}`).expect(200);
    expect(res.body.data).toEqual({
      user: expect.objectContaining({ id: user.id, email: user.email, is_admin: false }),
      roles: ['user'],
      permissions: [],
    });
    const adminMe = await me(`Bearer ${admin.token}`).expect(200);
    expect(adminMe.body.data.permissions).toContainEqual(
      expect.objectContaining({ permission: 'write_findings', level: 'global' }),
    );
  });

  it("reads the account and its memberships on every request: every field as the admin's read shows it, a new role at once, and a disabled account stops at once", async () => {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    const s = await login(t, user.email, user.password);
    const asAdmin = (path: string) =>
      request(t.url).get(path).set('Authorization', `Bearer ${admin.token}`);
    const stored = (await asAdmin(`/api/v1/admin/users/${user.id}`).expect(200)).body.data;
    expect(stored).toMatchObject({ display_name: expect.any(String), has_password: true });
    expect((await me(`Bearer ${s.token}`).expect(200)).body.data.user).toEqual(stored);
    // The memberships, read on every request too: a role given shows at the next request.
    const project = await request(t.url)
      .post('/api/v1/projects')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ name: `me-${user.id}` })
      .expect(201);
    const projectId = (project.body as { data: { id: string } }).data.id;
    await request(t.url)
      .put(`/api/v1/projects/${projectId}/members/${user.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ role: 'viewer' })
      .expect((res) => expect([200, 201]).toContain(res.status));
    const grants = (await me(`Bearer ${s.token}`).expect(200)).body.data.permissions;
    expect(grants).toEqual(
      ['read_findings', 'read_reports', 'list_products'].map((permission) => ({
        permission,
        level: 'project',
        project_id: projectId,
        product_id: null,
        expires_at: null,
      })),
    );
    await request(t.url)
      .put(`/api/v1/admin/users/${user.id}/enabled`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ enabled: false })
      .expect(200);
    expect((await me(`Bearer ${s.token}`).expect(401)).body.code).toBe('invalid_token');
    expect(
      (await request(t.url).get('/api/v1/findings').set('Authorization', `Bearer ${s.token}`))
        .status,
    ).toBe(401);
  });

  it('answers 401 without credentials', async () => {
    expect((await me().expect(401)).body.code).toBe('authentication_required');
  });

  it('answers 401 for expired, forged, wrong-audience, wrong-type and unsigned tokens', async () => {
    const admin = await loginAdmin(t);
    const sub = admin.userId;
    const tokens = [
      jwt.sign(
        { typ: 'access', sub, exp: Math.floor(Date.now() / 1000) - 10 },
        {
          secret: t.config.jwt.secret,
          issuer: 'findings-service',
          audience: 'findings-service/api',
        },
      ),
      sign({ typ: 'access', sub }, { secret: 'x'.repeat(64) }),
      sign({ typ: 'access', sub }, { audience: 'someone-else' }),
      sign({ typ: 'refresh', sub }),
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ typ: 'access', sub, iss: 'findings-service', aud: 'findings-service/api' })).toString('base64url')}.`,
      'not-a-jwt',
    ];
    for (const token of tokens) {
      const res = await me(`Bearer ${token}`).expect(401);
      expect(res.body).toEqual({
        error: 'access token is invalid or expired',
        code: 'invalid_token',
      });
    }
  });

  it('refuses a service-account key sent as Bearer (401) and as X-API-Key on a user route (403)', async () => {
    const admin = await loginAdmin(t);
    const sa = await freshServiceAccount(t, admin);
    expect((await me(`Bearer ${sa.key}`).expect(401)).body.code).toBe('invalid_token');
    const res = await request(t.url).get('/api/v1/auth/me').set('X-API-Key', sa.key).expect(403);
    expect(res.body.code).toBe('access_denied');
  });
});

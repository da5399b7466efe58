import { JwtService } from '@nestjs/jwt';
import { TOKEN_CLOCK_SKEW_SECONDS } from '@platform/auth';
import { createServiceAccount, createUser, loginAdmin, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, TEST_JWT_SECRET, type TestApp } from '../support/test-app';

const jwt = new JwtService();
const CLAIMS = {
  issuer: 'certificate-service',
  audience: 'certificate-service-api',
  subject: ADMIN_EMAIL,
};

describe('Me - /api/v1/auth/me (GET)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const me = (token: string) =>
    t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${token}`);

  it('answers email, role and roles', async () => {
    const res = await me(admin.accessToken).expect(200);
    expect(res.body).toEqual({ email: ADMIN_EMAIL, role: 'cert-admin', roles: ['cert-admin'] });
  });

  it('answers a person without roles (role null), who gets 403 elsewhere', async () => {
    const nobody = await createUser(t, admin, []);
    expect((await me(nobody.accessToken).expect(200)).body).toEqual({
      email: nobody.email,
      role: null,
      roles: [],
    });
    const res = await t.http
      .get('/api/v1/audit')
      .set('authorization', `Bearer ${nobody.accessToken}`)
      .expect(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('answers 401 without a token, for an expired, forged, wrongly typed or wrongly addressed JWT', async () => {
    await t.http.get('/api/v1/auth/me').expect(401);
    const now = Math.floor(Date.now() / 1000);
    const expired = jwt.sign(
      { typ: 'access', iat: now - 100, exp: now - 10 - TOKEN_CLOCK_SKEW_SECONDS },
      { ...CLAIMS, secret: TEST_JWT_SECRET },
    );
    const forged = jwt.sign(
      { typ: 'access' },
      { ...CLAIMS, secret: 'another-secret-another-secret-another', expiresIn: 60 },
    );
    const refreshTyped = jwt.sign(
      { typ: 'refresh' },
      { ...CLAIMS, secret: TEST_JWT_SECRET, expiresIn: 60 },
    );
    const otherAudience = jwt.sign(
      { typ: 'access' },
      { ...CLAIMS, audience: 'findings', secret: TEST_JWT_SECRET, expiresIn: 60 },
    );
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: ADMIN_EMAIL, typ: 'access' })).toString('base64url')}.`;
    for (const token of [expired, forged, refreshTyped, otherAudience, none, 'garbage']) {
      const res = await me(token).expect(401);
      expect(res.body.code).toBe('unauthorized');
    }
    const valid = jwt.sign(
      { typ: 'access' },
      { ...CLAIMS, secret: TEST_JWT_SECRET, expiresIn: 60 },
    );
    await me(valid).expect(200);
  });

  it('refuses a service account (people only)', async () => {
    const sa = await createServiceAccount(t, admin);
    await me(sa.token).expect(403);
  });
});

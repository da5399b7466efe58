import { TOKEN_CLOCK_SKEW_SECONDS as SKEW } from '@platform/auth';
import { signHs256Jwt, tokenTimesAccepted, tokenTimesRefused } from '@platform/testing';
import request from 'supertest';
import { Login, loginAdmin } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

describe('Token lifetime - /api/v1/auth/me (GET)', () => {
  let t: TestApp;
  let admin: Login;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  function me(times: Record<string, unknown>, secret = t.config.jwt.secret) {
    const token = signHs256Jwt(
      {
        typ: 'access',
        sub: admin.userId,
        iss: 'findings-service',
        aud: 'findings-service/api',
        ...times,
      },
      secret,
    );
    return request(t.url).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);
  }

  it('accepts a token inside its lifetime, and tolerates the clock skew', async () => {
    for (const times of tokenTimesAccepted(SKEW)) await me(times()).expect(200);
  });

  // The key is made once at start (a KeyObject, issue 34): it must still be the only one taken.
  it('answers 401 invalid_token for a token signed with another secret or not signed', async () => {
    const [times] = tokenTimesAccepted(SKEW);
    await me(times()).expect(200);
    const forged = await me(times(), `${t.config.jwt.secret}x`).expect(401);
    expect(forged.body).toMatchObject({ code: 'invalid_token' });
    const claims = { typ: 'access', sub: admin.userId, iss: 'findings-service' };
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify({ ...claims, aud: 'findings-service/api', ...times() })).toString(
        'base64url',
      ),
      '',
    ].join('.');
    await request(t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${unsigned}`)
      .expect(401);
  });

  it.each(tokenTimesRefused(SKEW))(
    'answers 401 invalid_token for a token %s',
    async (_case, times) => {
      const res = await me(times()).expect(401);
      expect(res.body).toEqual({
        error: 'access token is invalid or expired',
        code: 'invalid_token',
      });
    },
  );
});

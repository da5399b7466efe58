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

  function me(times: Record<string, unknown>) {
    const token = signHs256Jwt(
      {
        typ: 'access',
        sub: admin.userId,
        iss: 'findings-service',
        aud: 'findings-service/api',
        ...times,
      },
      t.config.jwt.secret,
    );
    return request(t.url).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);
  }

  it('accepts a token inside its lifetime, and tolerates the clock skew', async () => {
    for (const times of tokenTimesAccepted(SKEW)) await me(times()).expect(200);
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

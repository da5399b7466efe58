import { TOKEN_CLOCK_SKEW_SECONDS as SKEW } from '@platform/auth';
import { signHs256Jwt, tokenTimesAccepted, tokenTimesRefused } from '@platform/testing';
import { ADMIN_EMAIL, startTestApp, TEST_JWT_SECRET, type TestApp } from '../support/test-app';

describe('Token lifetime - /api/v1/auth/me (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  function me(times: Record<string, unknown>) {
    const token = signHs256Jwt(
      {
        typ: 'access',
        sub: ADMIN_EMAIL,
        iss: 'certificate-service',
        aud: 'certificate-service-api',
        ...times,
      },
      TEST_JWT_SECRET,
    );
    return t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${token}`);
  }

  it('accepts a token inside its lifetime, and tolerates the clock skew', async () => {
    for (const times of tokenTimesAccepted(SKEW)) await me(times()).expect(200);
  });

  it.each(tokenTimesRefused(SKEW))(
    'answers 401 unauthorized for a token %s',
    async (_case, times) => {
      const res = await me(times()).expect(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: 'authentication required' });
    },
  );
});

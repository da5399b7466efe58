import { TOKEN_CLOCK_SKEW_SECONDS as SKEW } from '@platform/auth';
import { signHs256Jwt } from '@platform/testing';
import request from 'supertest';
import { Login, loginAdmin } from '../support/identities';
import { startTestApp, TestApp } from '../support/test-app';

describe('Token lifetime - /api/v1/auth/me (GET)', () => {
  let t: TestApp;
  let admin: Login;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const now = () => Math.floor(Date.now() / 1000);

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
    await me({ iat: now(), exp: now() + 600 }).expect(200);
    await me({ iat: now() - 5, exp: now() + 600, nbf: now() - 5 }).expect(200);
    await me({ iat: now() - 600, exp: now() - SKEW / 3 }).expect(200);
    await me({ iat: now() + SKEW / 3, exp: now() + 600, nbf: now() + SKEW / 3 }).expect(200);
  });

  it.each([
    ['without exp', () => ({ iat: now() })],
    ['without iat', () => ({ exp: now() + 600 })],
    ['without exp and iat', () => ({})],
    ['exp in the past', () => ({ iat: now() - 600, exp: now() - 2 * SKEW })],
    ['iat in the future', () => ({ iat: now() + 2 * SKEW, exp: now() + 600 })],
    ['nbf in the future', () => ({ iat: now(), exp: now() + 600, nbf: now() + 2 * SKEW })],
    ['non-numeric exp', () => ({ iat: now(), exp: String(now() + 600) })],
    ['non-numeric iat', () => ({ iat: String(now()), exp: now() + 600 })],
    ['non-numeric nbf', () => ({ iat: now(), exp: now() + 600, nbf: 'now' })],
  ])('answers 401 invalid_token for a token %s', async (_case, times) => {
    const res = await me(times()).expect(401);
    expect(res.body).toEqual({
      error: 'access token is invalid or expired',
      code: 'invalid_token',
    });
  });
});

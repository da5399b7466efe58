import { loginAdmin } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Logout - /api/v1/auth/logout (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('ends the session of the presented refresh token and clears the cookie', async () => {
    const session = await loginAdmin(t);
    const other = await loginAdmin(t);
    const res = await t.http
      .post('/api/v1/auth/logout')
      .set('cookie', `certsvc_refresh_token=${session.refreshToken}`)
      .expect(204);
    expect(String(res.headers['set-cookie'])).toMatch(/certsvc_refresh_token=;.*1970/);
    await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: session.refreshToken })
      .expect(401);
    await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: other.refreshToken })
      .expect(200);
  });

  it('succeeds without a token', async () => {
    await t.http.post('/api/v1/auth/logout').expect(204);
  });
});

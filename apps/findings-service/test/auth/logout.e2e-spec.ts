import request from 'supertest';
import { freshUser, login, loginAdmin } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

describe('Logout - /api/v1/auth/logout (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('revokes every refresh token of the user and clears the cookie', async () => {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    const first = await login(t, user.email, user.password);
    const second = await login(t, user.email, user.password);
    const res = await request(t.url)
      .post('/api/v1/auth/logout')
      .set('Authorization', `Bearer ${first.token}`)
      .set('Cookie', first.cookie)
      .expect(204);
    const cleared = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(cleared).toMatch(/^findsvc_refresh=;/);
    expect(cleared).toMatch(/Max-Age=0/);
    for (const cookie of [first.cookie, second.cookie]) {
      await request(t.url).post('/api/v1/auth/token/refresh').set('Cookie', cookie).expect(401);
    }
  });

  it('works with only the refresh cookie (expired access token)', async () => {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    const s = await login(t, user.email, user.password);
    await request(t.url).post('/api/v1/auth/logout').set('Cookie', s.cookie).expect(204);
    await request(t.url).post('/api/v1/auth/token/refresh').set('Cookie', s.cookie).expect(401);
  });

  it('rejects a forged bearer token (401)', async () => {
    const res = await request(t.url)
      .post('/api/v1/auth/logout')
      .set('Authorization', 'Bearer a.b.c')
      .expect(401);
    expect(res.body.code).toBe('invalid_token');
  });
});

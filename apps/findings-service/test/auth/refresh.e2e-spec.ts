import request from 'supertest';
import { freshUser, login, loginAdmin, refreshCookieOf } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

describe('Refresh - /api/v1/auth/token/refresh (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function session() {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    return login(t, user.email, user.password);
  }

  function refresh(cookie: string | undefined) {
    const req = request(t.url).post('/api/v1/auth/token/refresh');
    return cookie ? req.set('Cookie', cookie) : req;
  }

  it('rotates the refresh token and issues a working access token', async () => {
    const s = await session();
    const res = await refresh(s.cookie).expect(200);
    const next = refreshCookieOf(res);
    expect(next).toBeDefined();
    expect(next).not.toEqual(s.cookie);
    expect(res.body.data.token_type).toBe('Bearer');
    await request(t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${res.body.data.access_token}`)
      .expect(200);
    // the rotated token keeps working once
    await refresh(next).expect(200);
  });

  it('detects reuse of a rotated token and revokes the whole family', async () => {
    const s = await session();
    const rotated = refreshCookieOf(await refresh(s.cookie).expect(200));
    const reuse = await refresh(s.cookie).expect(401);
    expect(reuse.body.code).toBe('refresh_token_reused');
    // the legitimate successor is revoked too
    const after = await refresh(rotated).expect(401);
    expect(after.body.code).toBe('refresh_token_reused');
  });

  it('answers 401 without a cookie or with an unknown token', async () => {
    expect((await refresh(undefined).expect(401)).body.code).toBe('refresh_token_invalid');
    const unknown = await refresh('findsvc_refresh=bm90LWEtcmVhbC10b2tlbg').expect(401);
    expect(unknown.body.code).toBe('refresh_token_invalid');
  });
});

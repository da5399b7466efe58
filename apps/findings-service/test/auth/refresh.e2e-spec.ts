import { sha256Hex } from '@platform/auth';
import request from 'supertest';
import { DataSource } from 'typeorm';
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

  /** The stored row of a refresh cookie (`findsvc_refresh=<token>`). */
  async function stored(cookie: string | undefined) {
    const [row] = (await t.app
      .get(DataSource)
      .query(
        'SELECT user_id, family_id, used_at, revoked_at FROM refresh_tokens WHERE token_hash = $1',
        [sha256Hex((cookie ?? '').split('=')[1] ?? '')],
      )) as { user_id: string; family_id: string; used_at: Date | null; revoked_at: Date | null }[];
    return row;
  }

  it('marks the presented token used (not revoked), keys the session by the access token subject, and a sign-out revokes', async () => {
    const s = await session();
    const res = await refresh(s.cookie).expect(200);
    const next = refreshCookieOf(res);
    const [used, successor] = [await stored(s.cookie), await stored(next)];
    expect(used.used_at).not.toBeNull();
    expect(used.revoked_at).toBeNull();
    expect(successor).toMatchObject({ family_id: used.family_id, used_at: null, revoked_at: null });
    const accessToken = res.body.data.access_token as string;
    const sub = (
      JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()) as {
        sub: string;
      }
    ).sub;
    expect(successor.user_id).toBe(sub);
    expect(sub).toBe(s.userId);
    await request(t.url)
      .post('/api/v1/auth/logout')
      .set('Cookie', next ?? '')
      .expect(204);
    expect((await stored(next)).revoked_at).not.toBeNull();
    expect((await stored(s.cookie)).revoked_at).not.toBeNull();
  });

  /** Moves every retirement 11 s back: past the 10 s rotation grace window. */
  const ageRetirements = () =>
    t.app
      .get(DataSource)
      .query(
        `UPDATE refresh_tokens SET used_at = used_at - interval '11 seconds' WHERE used_at IS NOT NULL`,
      );

  it('answers a token rotated seconds ago (a reload racing the rotation) with a new successor', async () => {
    const s = await session();
    const rotated = refreshCookieOf(await refresh(s.cookie).expect(200));
    const again = await refresh(s.cookie).expect(200);
    const branch = refreshCookieOf(again);
    expect(branch).toBeDefined();
    expect(branch).not.toEqual(rotated);
    await request(t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${again.body.data.access_token}`)
      .expect(200);
    // both successors live on
    await refresh(rotated).expect(200);
    await refresh(branch).expect(200);
    // a sign-out ends the family: the retired token gets nothing, even within the window
    const ended = await session();
    const next = refreshCookieOf(await refresh(ended.cookie).expect(200));
    await request(t.url)
      .post('/api/v1/auth/logout')
      .set('Cookie', next ?? '')
      .expect(204);
    expect((await refresh(ended.cookie).expect(401)).body.code).toBe('refresh_token_reused');
  });

  it('detects reuse of a token rotated longer ago and revokes the whole family', async () => {
    const s = await session();
    const rotated = refreshCookieOf(await refresh(s.cookie).expect(200));
    await ageRetirements();
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

import { sha256Hex } from '@platform/auth';
import { DataSource } from 'typeorm';
import { loginAdmin } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Refresh - /api/v1/auth/refresh (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('rotates the refresh token given in the body', async () => {
    const session = await loginAdmin(t);
    const res = await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: session.refreshToken })
      .expect(200);
    expect(res.body.refresh_token).not.toBe(session.refreshToken);
    expect(res.body.user.role).toBe('cert-admin');
    await t.http
      .get('/api/v1/auth/me')
      .set('authorization', `Bearer ${res.body.access_token}`)
      .expect(200);
  });

  it('marks the presented token used (not revoked), keys the session by the access token subject, and a sign-out revokes', async () => {
    const stored = async (token: string) => {
      const [row] = (await t.app
        .get(DataSource)
        .query(
          'SELECT email, family_id, used_at, revoked_at FROM refresh_tokens WHERE token_hash = $1',
          [sha256Hex(token)],
        )) as { email: string; family_id: string; used_at: Date | null; revoked_at: Date | null }[];
      return row;
    };
    const session = await loginAdmin(t);
    const res = await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: session.refreshToken })
      .expect(200);
    const next = res.body.refresh_token as string;
    const [used, successor] = [await stored(session.refreshToken), await stored(next)];
    expect(used.used_at).not.toBeNull();
    expect(used.revoked_at).toBeNull();
    expect(successor).toMatchObject({ family_id: used.family_id, used_at: null, revoked_at: null });
    const accessToken = res.body.access_token as string;
    const sub = (
      JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()) as {
        sub: string;
      }
    ).sub;
    expect(successor.email).toBe(sub);
    await t.http.post('/api/v1/auth/logout').send({ refresh_token: next }).expect(204);
    expect((await stored(next)).revoked_at).not.toBeNull();
    expect((await stored(session.refreshToken)).revoked_at).not.toBeNull();
  });

  it('accepts the refresh token from the cookie', async () => {
    const session = await loginAdmin(t);
    const res = await t.http
      .post('/api/v1/auth/refresh')
      .set('cookie', `certsvc_refresh_token=${session.refreshToken}`)
      .expect(200);
    expect(String(res.headers['set-cookie'])).toContain(
      `certsvc_refresh_token=${res.body.refresh_token}`,
    );
  });

  it('answers a token rotated seconds ago (a reload racing the rotation) with a new successor', async () => {
    const session = await loginAdmin(t);
    const rotated = await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: session.refreshToken })
      .expect(200);
    const again = await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: session.refreshToken })
      .expect(200);
    expect(again.body.refresh_token).not.toBe(rotated.body.refresh_token);
    for (const token of [rotated.body.refresh_token, again.body.refresh_token]) {
      await t.http.post('/api/v1/auth/refresh').send({ refresh_token: token }).expect(200);
    }
  });

  it('treats reuse of a token rotated longer ago as theft: 401 and the whole family revoked', async () => {
    const session = await loginAdmin(t);
    const rotated = await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: session.refreshToken })
      .expect(200);
    // past the 10 s rotation grace window
    await t.app
      .get(DataSource)
      .query(
        `UPDATE refresh_tokens SET used_at = used_at - interval '11 seconds' WHERE used_at IS NOT NULL`,
      );
    const reuse = await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: session.refreshToken })
      .expect(401);
    expect(reuse.body.code).toBe('refresh_token_invalid');
    await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: rotated.body.refresh_token })
      .expect(401);
  });

  it('refuses a missing or unknown token', async () => {
    await t.http.post('/api/v1/auth/refresh').send({}).expect(401);
    await t.http.post('/api/v1/auth/refresh').send({ refresh_token: 'rt_unknown' }).expect(401);
  });
});

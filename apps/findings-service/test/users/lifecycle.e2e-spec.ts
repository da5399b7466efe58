import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { addMember, bearer } from '../support/catalog';
import { Product, seedFindings, startWithProduct } from '../support/findings-seed';
import { freshUser, login, Login } from '../support/sessions';
import { ADMIN_EMAIL, TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
});
afterAll(() => t.close());

const sql = <T>(text: string, params: unknown[]): Promise<T[]> =>
  t.app.get(DataSource).query(text, params) as Promise<T[]>;
const setEnabled = (as: Login, id: string, enabled: unknown) =>
  request(t.url)
    .put(`/api/v1/admin/users/${id}/enabled`)
    .set('Authorization', `Bearer ${as.token}`)
    .send({ enabled });
const remove = (as: Login, id: string) =>
  request(t.url).delete(`/api/v1/admin/users/${id}`).set('Authorization', `Bearer ${as.token}`);
const me = (as: Login) =>
  request(t.url).get('/api/v1/auth/me').set('Authorization', `Bearer ${as.token}`);
const refresh = (as: Login) =>
  request(t.url).post('/api/v1/auth/token/refresh').set('Cookie', as.cookie);
const signIn = (email: string, password: string) =>
  request(t.url).post('/api/v1/auth/local/login').send({ login: email, password });
const activeRefreshTokens = async (userId: string) =>
  (
    await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId],
    )
  )[0]?.n;

describe('Disable user - /api/v1/admin/users/{id}/enabled (PUT)', () => {
  it('stops sign-in, refresh and the access tokens already handed out; enable lets them back', async () => {
    const u = await freshUser(t, admin);
    const first = await login(t, u.email, u.password);
    const second = await login(t, u.email, u.password);
    await me(first).expect(200);
    expect(await activeRefreshTokens(u.id)).toBe(2);

    const res = await setEnabled(admin, u.id, false).expect(200);
    expect(res.body.data).toMatchObject({ id: u.id, email: u.email, is_active: false });
    expect(await activeRefreshTokens(u.id)).toBe(0);
    expect((await me(first).expect(401)).body.code).toBe('invalid_token');
    expect((await me(second).expect(401)).body.code).toBe('invalid_token');
    // a revoked token presented again reads as reuse, as after a logout
    expect((await refresh(first).expect(401)).body.code).toBe('refresh_token_reused');
    expect((await signIn(u.email, u.password).expect(401)).body.code).toBe('invalid_credentials');
    const got = await request(t.url)
      .get(`/api/v1/admin/users/${u.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(got.body.data.is_active).toBe(false);

    await setEnabled(admin, u.id, false).expect(200);
    expect((await setEnabled(admin, u.id, true).expect(200)).body.data.is_active).toBe(true);
    const back = await login(t, u.email, u.password);
    await me(back).expect(200);
    await refresh(second).expect(401);
  });

  it('makes a disabled user unassignable', async () => {
    const u = await freshUser(t, admin);
    await addMember(t, bearer(admin), product.project_id, u.id, 'analyst');
    const [finding] = await seedFindings(t, product, [{}]);
    await setEnabled(admin, u.id, false).expect(200);
    const res = await request(t.url)
      .patch(`/api/v1/findings/${finding}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ assignee_id: u.id })
      .expect(400);
    expect(res.body.code).toBe('assignee_invalid');
  });

  it('validates the body and the id', async () => {
    const u = await freshUser(t, admin);
    const bad = await setEnabled(admin, u.id, 'no').expect(400);
    expect(bad.body.fields[0].field).toBe('enabled');
    expect((await setEnabled(admin, randomUUID(), false).expect(404)).body.code).toBe(
      'user_not_found',
    );
    expect((await setEnabled(admin, 'bob', false).expect(404)).body.code).toBe('not_found');
  });
});

describe('Delete user - /api/v1/admin/users/{id} (DELETE)', () => {
  it('removes sessions, memberships and assignments; the action log still names the user', async () => {
    const u = await freshUser(t, admin);
    await addMember(t, bearer(admin), product.project_id, u.id, 'analyst');
    const session = await login(t, u.email, u.password);
    const [acted, assigned] = await seedFindings(t, product, [{}, {}]);
    await request(t.url)
      .patch(`/api/v1/findings/${acted}`)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ status: 'confirmed' })
      .expect(200);
    await request(t.url)
      .patch(`/api/v1/findings/${assigned}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ assignee_id: u.id })
      .expect(200);

    await remove(admin, u.id).expect(204);

    await request(t.url)
      .get(`/api/v1/admin/users/${u.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(404);
    expect((await me(session).expect(401)).body.code).toBe('invalid_token');
    await refresh(session).expect(401);
    expect((await signIn(u.email, u.password).expect(401)).body.code).toBe('invalid_credentials');
    expect(await sql(`SELECT 1 FROM refresh_tokens WHERE user_id = $1`, [u.id])).toHaveLength(0);
    const members = await request(t.url)
      .get(`/api/v1/projects/${product.project_id}/members`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(members.body.data.map((m: { user_id: string }) => m.user_id)).not.toContain(u.id);

    const actions = async (id: string) =>
      (
        await request(t.url)
          .get(`/api/v1/findings/${id}/actions`)
          .set('Authorization', `Bearer ${admin.token}`)
          .expect(200)
      ).body.data as { action: string; actor: unknown; from: unknown; to: unknown }[];
    expect(await actions(acted)).toContainEqual(
      expect.objectContaining({
        action: 'status_changed',
        actor: expect.objectContaining({ type: 'user', id: u.id, label: u.email }),
      }),
    );
    const finding = await request(t.url)
      .get(`/api/v1/findings/${assigned}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(finding.body.data.assignee_id).toBeNull();
    expect((await actions(assigned)).at(-1)).toMatchObject({
      action: 'assigned',
      actor: { type: 'user', id: admin.userId, label: ADMIN_EMAIL },
      from: { assignee_id: u.id },
      to: { assignee_id: null },
    });

    await remove(admin, u.id).expect(404);
    const again = await request(t.url)
      .post('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: u.email, password: u.password })
      .expect(201);
    expect(again.body.data.id).not.toBe(u.id);
  });
});

describe('Refusals - disabling or deleting oneself, the configured or the last administrator', () => {
  it('refuses your own account (409 user_is_self)', async () => {
    const other = await freshUser(t, admin, { isAdmin: true });
    const otherAdmin = await login(t, other.email, other.password);
    expect((await setEnabled(otherAdmin, other.id, false).expect(409)).body.code).toBe(
      'user_is_self',
    );
    expect((await remove(otherAdmin, other.id).expect(409)).body.code).toBe('user_is_self');
    await me(otherAdmin).expect(200);
  });

  it('refuses the LOCAL_ADMIN_EMAIL account (409 user_configured_admin)', async () => {
    const other = await freshUser(t, admin, { isAdmin: true });
    const otherAdmin = await login(t, other.email, other.password);
    const res = await setEnabled(otherAdmin, admin.userId, false)
      .set('Accept-Language', 'ru')
      .expect(409);
    expect(res.body).toEqual({
      code: 'user_configured_admin',
      error: expect.stringContaining('LOCAL_ADMIN_EMAIL'),
    });
    await remove(otherAdmin, admin.userId).expect(409);
    await me(admin).expect(200);
  });
});

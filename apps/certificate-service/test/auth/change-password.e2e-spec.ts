import { createUser, login, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Change password - /api/v1/auth/change-password (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const change = (user: TestUser, body: Record<string, string>) =>
    t.http
      .post('/api/v1/auth/change-password')
      .set('authorization', `Bearer ${user.accessToken}`)
      .send(body);

  it('changes the own password and revokes every refresh token', async () => {
    const user = await createUser(t, admin, ['cert-viewer']);
    const newPassword = 'a-brand-new-password-1';
    await change(user, { current_password: user.password, new_password: newPassword }).expect(204);
    await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: user.refreshToken })
      .expect(401);
    await t.http
      .post('/api/v1/auth/local/login')
      .send({ email: user.email, password: user.password })
      .expect(401);
    await login(t, user.email, newPassword);
  });

  it('refuses a wrong current password and a too short new one', async () => {
    const user = await createUser(t, admin, []);
    const wrong = await change(user, {
      current_password: 'not-my-password',
      new_password: 'long-enough-password',
    }).expect(400);
    expect(wrong.body.code).toBe('current_password_incorrect');
    const short = await change(user, {
      current_password: user.password,
      new_password: 'short',
    }).expect(400);
    expect(short.body.code).toBe('invalid_request');
  });

  it('requires a signed-in person', async () => {
    await t.http
      .post('/api/v1/auth/change-password')
      .send({ current_password: 'x', new_password: 'long-enough-password' })
      .expect(401);
  });
});

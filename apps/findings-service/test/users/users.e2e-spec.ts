import request from 'supertest';
import { freshUser, login, loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

describe('Users - /api/v1/admin/users (POST, GET)', () => {
  let t: TestApp;
  let admin: Login;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('creates a local user with a lower-cased email and lists it', async () => {
    const res = await request(t.url)
      .post('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({
        email: 'Mixed.Case@Example.TEST',
        display_name: 'Mixed',
        password: 'long-enough-password',
      })
      .expect(201);
    expect(res.body.data).toMatchObject({
      email: 'mixed.case@example.test',
      display_name: 'Mixed',
      is_admin: false,
      has_password: true,
    });
    const list = await request(t.url)
      .get('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(list.body.data.map((u: { email: string }) => u.email)).toContain(
      'mixed.case@example.test',
    );
    const dup = await request(t.url)
      .post('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: 'MIXED.case@example.test' })
      .expect(409);
    expect(dup.body.code).toBe('user_exists');
  });

  it('refuses non-administrators (403) and short passwords (400)', async () => {
    const user = await freshUser(t, admin);
    const s = await login(t, user.email, user.password);
    await request(t.url)
      .get('/api/v1/admin/users')
      .set('Authorization', `Bearer ${s.token}`)
      .expect(403);
    const short = await request(t.url)
      .post('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: 'short@example.test', password: 'short' })
      .expect(400);
    expect(short.body.fields[0].field).toBe('password');
  });
});

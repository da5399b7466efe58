import { AuditRepository } from '../../src/modules/audit/audit.repository';
import { loginAdmin, uniqueEmail, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Audit write failure - /api/v1/users/local (POST) with the audit store failing', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('lets the action stand, logs the failure and counts certsvc_audit_write_failures_total{action}', async () => {
    const spy = jest
      .spyOn(t.app.get(AuditRepository), 'insert')
      .mockRejectedValueOnce(new Error('disk full'));
    const email = uniqueEmail();
    try {
      await t.http
        .post('/api/v1/users/local')
        .set('authorization', `Bearer ${admin.accessToken}`)
        .send({ email, password: 'long-enough-password' })
        .expect(201);
    } finally {
      spy.mockRestore();
    }
    await t.http
      .post('/api/v1/auth/local/login')
      .send({ email, password: 'long-enough-password' })
      .expect(200);
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toContain('certsvc_audit_write_failures_total{action="user.create"} 1');
    const failure = t.logs.lines().find((l) => l.msg === 'audit write failed');
    expect(failure).toMatchObject({
      level: 'error',
      action: 'user.create',
      target: email,
      error: 'disk full',
    });
    expect(typeof failure?.request_id).toBe('string');
  });
});

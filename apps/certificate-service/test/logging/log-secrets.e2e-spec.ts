import { sha256Hex } from '@platform/auth';
import { refuseWritesQuotingTheRow, type RefusedWrite } from '@platform/testing';
import { createServiceAccount, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/** A user insert and every token-use update fail with an error that quotes the row. */
const REFUSED_WRITES: RefusedWrite[] = [
  { table: 'users', event: 'INSERT', when: "NEW.email LIKE '%@db-fault.test'" },
  { table: 'service_accounts', event: 'UPDATE' },
];

describe('Secrets in logs - failing requests write no secret to the log', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
    await refuseWritesQuotingTheRow(t.db.url, REFUSED_WRITES);
  });
  afterAll(() => t.close());
  beforeEach(() => t.logs.clear());

  const logText = () => JSON.stringify(t.logs.lines());

  it('logs a failed user insert as a panic with SQLSTATE and statement kind, without password, hash or token', async () => {
    const password = 'Known-Secret-Password-7';
    await t.http
      .post('/api/v1/users/local')
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ email: 'leak@db-fault.test', password, roles: [] })
      .expect(500);
    const panic = t.logs.lines().find((l) => l.msg === 'panic recovered');
    expect(panic).toMatchObject({ sqlstate: 'P0001', query_kind: 'INSERT' });
    const text = logText();
    expect(text).not.toContain(password);
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain(admin.accessToken);
  });

  it('logs a failed token lookup without the service-account token or its hash', async () => {
    const sa = await createServiceAccount(t, admin);
    t.logs.clear();
    await t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${sa.token}`).expect(401);
    const failure = t.logs.lines().find((l) => l.msg === 'authentication lookup failed');
    expect(failure?.error).toBe('UPDATE failed: SQLSTATE P0001');
    const text = logText();
    expect(text).not.toContain(sa.token);
    expect(text).not.toContain(sha256Hex(sa.token));
  });
});

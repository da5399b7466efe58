import { Client } from 'pg';
import { ServiceAccountsRepository } from '../../src/modules/service-accounts/service-accounts.repository';
import { ProbeModule } from '../support/probe.module';
import { createServiceAccount, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Service-account tokens - Authorization: Bearer wca_*', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp({ extraImports: [ProbeModule] });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const probe = (token: string) =>
    t.http.get('/api/v1/probe/approver').set('authorization', `Bearer ${token}`);
  const sql = async (text: string, params: unknown[]) => {
    const db = new Client({ connectionString: t.db.url });
    await db.connect();
    try {
      await db.query(text, params);
    } finally {
      await db.end();
    }
  };

  it('authenticates as cert-auto-approver with the allowed purposes, and the access log carries its role', async () => {
    const sa = await createServiceAccount(t, admin, { allowed_purposes: ['wifi', 'vpn'] });
    const res = await probe(sa.token).expect(200);
    expect(res.body).toMatchObject({
      kind: 'service_account',
      id: sa.id,
      role: 'cert-auto-approver',
      allowedPurposes: ['wifi', 'vpn'],
    });
    expect(t.logs.accessLines(res.headers['x-request-id'])[0]).toMatchObject({
      actor_role: 'cert-auto-approver',
    });
  });

  it('recognises wca_ before any JWT check: a JWT behind the prefix is an unknown token', async () => {
    const res = await probe(`wca_${admin.accessToken}`).expect(401);
    expect(res.body.code).toBe('unauthorized');
    await probe(admin.accessToken).expect(200);
  });

  it('answers 401 for unknown, disabled and expired tokens', async () => {
    await probe('wca_unknown-token').expect(401);
    const disabled = await createServiceAccount(t, admin);
    await t.http
      .put(`/api/v1/service-accounts/${disabled.id}/enabled`)
      .set('authorization', `Bearer ${admin.accessToken}`)
      .send({ enabled: false })
      .expect(200);
    await probe(disabled.token).expect(401);
    const expiring = await createServiceAccount(t, admin, { expires_in_days: 1 });
    await probe(expiring.token).expect(200);
    await sql(
      `UPDATE service_accounts SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [expiring.id],
    );
    await probe(expiring.token).expect(401);
  });

  it('answers 401 when the lookup fails in the database', async () => {
    const sa = await createServiceAccount(t, admin);
    const spy = jest
      .spyOn(t.app.get(ServiceAccountsRepository), 'findByTokenHash')
      .mockRejectedValueOnce(new Error('connection terminated'));
    try {
      await probe(sa.token).expect(401);
    } finally {
      spy.mockRestore();
    }
    await probe(sa.token).expect(200);
  });

  it('can never manage service accounts or users', async () => {
    const sa = await createServiceAccount(t, admin);
    const auth = ['authorization', `Bearer ${sa.token}`] as const;
    await t.http
      .get('/api/v1/service-accounts')
      .set(...auth)
      .expect(403);
    await t.http
      .post('/api/v1/service-accounts')
      .set(...auth)
      .send({ name: 'x' })
      .expect(403);
    await t.http
      .delete(`/api/v1/service-accounts/${sa.id}`)
      .set(...auth)
      .expect(403);
    await t.http
      .get('/api/v1/users')
      .set(...auth)
      .expect(403);
  });
});

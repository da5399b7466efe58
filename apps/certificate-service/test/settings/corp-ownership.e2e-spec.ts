import { CorpOwnershipCheck } from '../../src/modules/settings/corp-ownership-check';
import { startEnrollApp } from '../fixtures/enroll';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('Corp ownership - /api/v1/admin/corp-allowlist (GET, POST, DELETE) and /api/v1/settings/sa-auto-approve (GET, PUT)', () => {
  let t: TestApp;
  let admin: TestUser;
  let check: CorpOwnershipCheck;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    check = t.app.get(CorpOwnershipCheck);
  });
  afterAll(() => t.close());

  const setPolicy = (body: Record<string, unknown>) =>
    t.http
      .put('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .send(body);

  it('manages the allowlist (cert-admin only), audited', async () => {
    const approver = await createUser(t, admin, ['cert-approver']);
    await t.http
      .get('/api/v1/admin/corp-allowlist')
      .set(...bearer(approver.accessToken))
      .expect(403);
    const added = await t.http
      .post('/api/v1/admin/corp-allowlist')
      .set(...bearer(admin.accessToken))
      .send({ serial: 'CORP-1', note: 'asset 17' })
      .expect(201);
    expect(added.body).toMatchObject({ serial: 'CORP-1', note: 'asset 17', added_by: admin.email });
    await t.http
      .post('/api/v1/admin/corp-allowlist')
      .set(...bearer(admin.accessToken))
      .send({ serial: 'CORP-1' })
      .expect(201);
    await t.http
      .post('/api/v1/admin/corp-allowlist')
      .set(...bearer(admin.accessToken))
      .send({ serial: '' })
      .expect(400);
    const list = await t.http
      .get('/api/v1/admin/corp-allowlist')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(list.body.items.map((e: { serial: string }) => e.serial)).toEqual(['CORP-1']);
    await t.http
      .post('/api/v1/admin/corp-allowlist')
      .set(...bearer(admin.accessToken))
      .send({ serial: 'CORP-2' })
      .expect(201);
    await t.http
      .delete('/api/v1/admin/corp-allowlist/CORP-2')
      .set(...bearer(admin.accessToken))
      .expect(204);
    expect(
      (
        await t.http
          .delete('/api/v1/admin/corp-allowlist/CORP-2')
          .set(...bearer(admin.accessToken))
          .expect(404)
      ).body.code,
    ).toBe('corp_allowlist_entry_not_found');
    const audit = await t.http
      .get('/api/v1/audit?action=corp_allowlist.add')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(audit.body.items).toHaveLength(2);
  });

  it('defaults to off (check disabled) and audits policy changes with old and new values', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    expect(
      (
        await t.http
          .get('/api/v1/settings/sa-auto-approve')
          .set(...bearer(viewer.accessToken))
          .expect(200)
      ).body,
    ).toMatchObject({ policy: 'off', webhook_configured: false });
    expect(await check.enabled()).toBe(false);
    expect(await check.check('ANYTHING')).toBe('allowed');
    await setPolicy({ policy: 'allowlist' }).expect(200);
    const audit = await t.http
      .get('/api/v1/audit?action=settings.sa_auto_approve_change')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(audit.body.items[0].details).toMatchObject({
      old: { policy: 'off' },
      new: { policy: 'allowlist' },
    });
    await setPolicy({ policy: 'sometimes' }).expect(400);
    await setPolicy({ policy: 'webhook', webhook_url: 'http://plain.example' }).expect(400);
  });

  it('answers allowed / denied from the allowlist and never reads a missing webhook as permission', async () => {
    await t.http
      .post('/api/v1/admin/corp-allowlist')
      .set(...bearer(admin.accessToken))
      .send({ serial: 'CORP-OK' })
      .expect(201);
    await setPolicy({ policy: 'allowlist' }).expect(200);
    expect(await check.check('CORP-OK')).toBe('allowed');
    expect(await check.check('ROGUE')).toBe('denied');
    await setPolicy({ policy: 'webhook' }).expect(200);
    expect(await check.check('CORP-OK')).toBe('error');
    await setPolicy({ policy: 'allowlist_or_webhook' }).expect(200);
    expect(await check.check('CORP-OK')).toBe('allowed');
    expect(await check.check('ROGUE')).toBe('error');
    await setPolicy({
      policy: 'allowlist_and_webhook',
      webhook_url: 'https://owner.example/check',
    }).expect(200);
    expect(await check.check('ROGUE')).toBe('denied');
    expect(await check.check('CORP-OK')).toBe('error');
  });
});

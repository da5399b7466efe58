import { DataSource } from 'typeorm';
import { CorpOwnershipCheck } from '../../src/modules/settings/corp-ownership-check';
import { enrollDevice } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { bearer, createServiceAccount, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { startWebhookApp } from './webhook-app';
import { WebhookReceiver, type Received } from './webhook-receiver';

const SECRET = 'corp-ownership-secret-0123456789';

/** The receiver's answer: allowed for serials starting with CORP-, denied otherwise. */
function ownership(req: Received) {
  const serials = (req.json.serials ?? []) as string[];
  return {
    status: 200,
    body: JSON.stringify({
      results: serials.map((serial) => ({ serial, allowed: serial.startsWith('CORP-') })),
    }),
  };
}

describe('Corp-ownership webhook policies - webhook, allowlist_or_webhook, allowlist_and_webhook', () => {
  let t: TestApp;
  let admin: TestUser;
  let receiver: WebhookReceiver;
  let check: CorpOwnershipCheck;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    receiver.secret('/owner', SECRET);
    receiver.on('/owner', (_n, req) => ownership(req));
    t = await startWebhookApp();
    admin = await loginAdmin(t);
    check = t.app.get(CorpOwnershipCheck);
    await t.http
      .post('/api/v1/admin/corp-allowlist')
      .set(...bearer(admin.accessToken))
      .send({ serial: 'LISTED-1' })
      .expect(201);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const setPolicy = (body: Record<string, unknown>) =>
    t.http
      .put('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .send(body);
  const usePolicy = (policy: string, path = '/owner', extra: Record<string, unknown> = {}) =>
    setPolicy({
      policy,
      webhook_url: receiver.url(path),
      webhook_secret: SECRET,
      webhook_timeout_ms: 500,
      ...extra,
    }).expect(200);
  const calls = () => receiver.of('/owner').length;

  it('stores the secret sealed, never shows or audits it, and checks the URL with the guard', async () => {
    const res = await usePolicy('webhook');
    expect(res.body).toMatchObject({
      policy: 'webhook',
      webhook_secret_set: true,
      webhook_configured: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const [row] = (await t.app
      .get(DataSource)
      .query(`SELECT value FROM policy_settings WHERE key = 'sa_auto_approve'`)) as {
      value: Record<string, unknown>;
    }[];
    expect(JSON.stringify(row.value)).not.toContain(SECRET);
    expect(row.value.webhook_secret_sealed).toMatch(/^v1:/);
    const audit = await t.http
      .get('/api/v1/audit?action=settings.sa_auto_approve_change')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(JSON.stringify(audit.body)).not.toContain(SECRET);
    expect(JSON.stringify(audit.body)).not.toContain(row.value.webhook_secret_sealed as string);
    expect(audit.body.items[0].details.new).toMatchObject({ webhook_secret_set: true });
    // Keeping the secret when it is not sent; removing it with null.
    await setPolicy({ policy: 'webhook', webhook_url: receiver.url('/owner') }).expect(200);
    expect(await check.check('CORP-1')).toBe('allowed');
    // Refused by the guard at save; bad secrets refused by validation.
    const refused = await setPolicy({
      policy: 'webhook',
      webhook_url: 'http://169.254.169.254/latest',
    }).expect(400);
    expect(refused.body.code).toBe('webhook_url_refused');
    await setPolicy({ policy: 'webhook', webhook_secret: 'short' }).expect(400);
    await usePolicy('webhook');
  });

  it('webhook: the webhook decides every serial, signed, in batches of 100', async () => {
    await usePolicy('webhook');
    const before = calls();
    expect(await check.check('CORP-1')).toBe('allowed');
    expect(await check.check('ROGUE-1')).toBe('denied');
    expect(await check.check('LISTED-1')).toBe('denied');
    expect(
      receiver
        .of('/owner')
        .slice(before)
        .every((r) => r.verified),
    ).toBe(true);
    expect(receiver.of('/owner')[before].event).toBe('corp_ownership.check');
    const serials = Array.from({ length: 250 }, (_, i) => (i % 2 ? `CORP-${i}` : `ROGUE-${i}`));
    const start = calls();
    const verdicts = await check.checkMany(serials);
    expect(calls() - start).toBe(3);
    expect(
      receiver
        .of('/owner')
        .slice(start)
        .map((r) => (r.json.serials as string[]).length)
        .sort(),
    ).toEqual([100, 100, 50]);
    for (const [i, serial] of serials.entries()) {
      expect(verdicts.get(serial)).toBe(i % 2 ? 'allowed' : 'denied');
    }
  });

  it('allowlist_or_webhook: listed serials pass without a call, the webhook decides the rest', async () => {
    await usePolicy('allowlist_or_webhook');
    const before = calls();
    expect(await check.check('LISTED-1')).toBe('allowed');
    expect(calls()).toBe(before);
    const verdicts = await check.checkMany(['LISTED-1', 'CORP-2', 'ROGUE-2']);
    expect(Object.fromEntries(verdicts)).toEqual({
      'LISTED-1': 'allowed',
      'CORP-2': 'allowed',
      'ROGUE-2': 'denied',
    });
    expect(
      receiver
        .of('/owner')
        .slice(before)
        .map((r) => r.json.serials),
    ).toEqual([['CORP-2', 'ROGUE-2']]);
  });

  it('allowlist_and_webhook: unlisted serials are denied without a call, listed ones asked', async () => {
    await usePolicy('allowlist_and_webhook');
    const before = calls();
    expect(await check.check('CORP-3')).toBe('denied');
    expect(calls()).toBe(before);
    // Listed, and the webhook says no (the serial does not start with CORP-).
    expect(await check.check('LISTED-1')).toBe('denied');
    expect(calls()).toBe(before + 1);
    receiver.on('/owner-yes', () => ({ status: 200, body: '{"allowed":true}' }));
    receiver.secret('/owner-yes', SECRET);
    await usePolicy('allowlist_and_webhook', '/owner-yes');
    expect(await check.check('LISTED-1')).toBe('allowed');
  });

  it.each([
    ['a 500 answer', { status: 500, body: '{"allowed":true}' }],
    ['a redirect (never followed)', { status: 302, body: '{"allowed":true}' }],
    ['an answer that is not JSON', { status: 200, body: 'yes' }],
    ['allowed that is not a boolean', { status: 200, body: '{"allowed":"true"}' }],
    [
      'results without the serial',
      { status: 200, body: '{"results":[{"serial":"OTHER","allowed":true}]}' },
    ],
    [
      'contradicting results',
      {
        status: 200,
        body: '{"results":[{"serial":"CORP-9","allowed":true},{"serial":"CORP-9","allowed":false}]}',
      },
    ],
    [
      'a slow answer past webhook_timeout_ms',
      { status: 200, body: '{"allowed":true}', delayMs: 1500 },
    ],
  ])('%s is an error, never permission, in every webhook mode', async (_name, answer) => {
    const path = `/failing-${_name.replace(/\W+/g, '-')}`;
    receiver.on(path, () => answer);
    for (const policy of ['webhook', 'allowlist_or_webhook', 'allowlist_and_webhook']) {
      await usePolicy(policy, path);
      const serial = policy === 'allowlist_and_webhook' ? 'LISTED-1' : 'CORP-9';
      expect({ policy, verdict: await check.check(serial) }).toEqual({ policy, verdict: 'error' });
    }
  });

  it('a receiver that is down, a missing secret and a URL the guard refuses at call time are errors', async () => {
    await setPolicy({
      policy: 'webhook',
      webhook_url: 'http://127.0.0.1:9/down',
      webhook_secret: SECRET,
    }).expect(200);
    expect(await check.check('CORP-1')).toBe('error');
    await setPolicy({
      policy: 'webhook',
      webhook_url: receiver.url('/owner'),
      webhook_secret: null,
    }).expect(200);
    const before = calls();
    expect(await check.check('CORP-1')).toBe('error');
    expect(calls()).toBe(before);
    // A URL stored before the guard saw it (e.g. an older release): refused when called.
    await usePolicy('webhook');
    const db = t.app.get(DataSource);
    await db.query(
      `UPDATE policy_settings SET value = jsonb_set(value, '{webhook_url}', '"http://169.254.169.254/owner"') WHERE key = 'sa_auto_approve'`,
    );
    expect(await check.check('CORP-1')).toBe('error');
  });

  it('a service-account approval follows the webhook: denied refuses, allowed issues', async () => {
    await usePolicy('webhook');
    const sa = await createServiceAccount(t, admin, { allowed_purposes: ['wifi'] });
    const corp = await enrollDevice(t, { serial: `CORP-${Date.now()}` });
    const rogue = await enrollDevice(t, { serial: `ROGUE-${Date.now()}` });
    const rows = await approveRows(t, sa.token, [corp.requestId, rogue.requestId]);
    expect(rows.map((r) => r.error ?? r.status)).toEqual(['issued', 'corp_ownership_denied']);
    await setPolicy({ policy: 'off' }).expect(200);
  });
});

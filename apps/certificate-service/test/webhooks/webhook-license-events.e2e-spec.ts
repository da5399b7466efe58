import { enrollDevices, sql } from '../fixtures/enroll';
import { approve, approveRows } from '../fixtures/issue';
import { Vendor } from '../fixtures/license';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { createEndpoint, drainUntil, startWebhookApp } from './webhook-app';
import { WebhookReceiver } from './webhook-receiver';

describe('Webhook outbox - license events (activated, tamper once, reanchored)', () => {
  const vendor = new Vendor();
  let t: TestApp;
  let admin: TestUser;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startWebhookApp({ env: { CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey } });
    admin = await loginAdmin(t);
    await createEndpoint(t, admin, {
      url: receiver.url('/license'),
      event_types: ['license.activated', 'license.tamper', 'license.reanchored'],
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    vendor.dispose();
  });

  const events = () => receiver.of('/license').map((r) => r.event);

  it('reports an activation, entering tamper once, and the re-anchoring', async () => {
    const status = await t.http
      .get('/api/v1/license/status')
      .set(...bearer(admin.accessToken))
      .expect(200);
    const license = vendor.sign({
      instanceKey: status.body.deployment_instance_key as string,
      maxDevices: 100,
      licenseId: 'LIC-WEBHOOK-1',
    });
    await t.http
      .post('/api/v1/license/activate')
      .set(...bearer(admin.accessToken))
      .send({ license_b64: license })
      .expect(200);
    await drainUntil(t, () => events().length === 1);
    expect(receiver.of('/license')[0].json.data).toMatchObject({
      license_id: 'LIC-WEBHOOK-1',
      max_devices: 100,
    });

    // An attacker edits the ledger: the next counted approval enters tamper (once).
    const [first, second, third] = await enrollDevices(t, 3);
    expect((await approveRows(t, admin.accessToken, [first.requestId]))[0].status).toBe('issued');
    await sql(t, `ALTER TABLE license_ledger DISABLE TRIGGER "TRG_license_ledger_append_only"`);
    try {
      await sql(t, `UPDATE license_ledger SET at = at - interval '1 day'`);
    } finally {
      await sql(t, `ALTER TABLE license_ledger ENABLE TRIGGER "TRG_license_ledger_append_only"`);
    }
    await approve(t, admin.accessToken, [second.requestId]).expect(402);
    await approve(t, admin.accessToken, [third.requestId]).expect(402);
    await t.http
      .post('/api/v1/license/reanchor')
      .set(...bearer(admin.accessToken))
      .expect(200);
    await drainUntil(t, () => events().length >= 3);
    expect(events()).toEqual(['license.activated', 'license.tamper', 'license.reanchored']);
    expect(receiver.of('/license')[1].json.data).toMatchObject({
      reason: expect.stringMatching(/hash chain/),
    });
  });
});

import { enrollDevice } from '../fixtures/enroll';
import { issueCertificate } from '../fixtures/issue';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { createEndpoint, deliveryRows, drainUntil, startWebhookApp } from '../webhooks/webhook-app';
import { WebhookReceiver } from '../webhooks/webhook-receiver';

describe('Issuance directives - webhook events directive.created, directive.reported, directive.cancelled', () => {
  let t: TestApp;
  let admin: TestUser;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startWebhookApp();
    admin = await loginAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers one signed event per change, written with the change, and none for a refused one', async () => {
    const endpoint = await createEndpoint(t, admin, {
      url: receiver.url('/directives'),
      event_types: ['directive.created', 'directive.reported', 'directive.cancelled'],
    });
    receiver.secret('/directives', endpoint.secret);
    const d = await enrollDevice(t);
    await issueCertificate(t, admin.accessToken, d);
    const create = (user: string) =>
      t.http
        .post(`/api/v1/devices/${d.serial}/issuance-directives`)
        .set(...bearer(admin.accessToken))
        .send({ purpose: 'user_mtls', user });
    const reported = (await create('rep@example.com').expect(201)).body.id as string;
    const cancelled = (await create('can@example.com').expect(201)).body.id as string;
    await create('rep@example.com').expect(409);
    await t.http
      .post(`/api/v1/enroll/issuance-directives/${reported}/report`)
      .set('x-agent-secret', d.agentSecret)
      .send({ outcome: 'failed', message: 'no smartcard reader' })
      .expect(200);
    // A retried report and a second cancel change nothing, so they send nothing.
    await t.http
      .post(`/api/v1/enroll/issuance-directives/${reported}/report`)
      .set('x-agent-secret', d.agentSecret)
      .send({ outcome: 'failed' })
      .expect(200);
    for (let i = 0; i < 2; i++) {
      await t.http
        .delete(`/api/v1/admin/issuance-directives/${cancelled}`)
        .set(...bearer(admin.accessToken))
        .expect(204);
    }
    const rows = await deliveryRows(t, 'endpoint_id = $1', [endpoint.id]);
    expect(rows.map((r) => r.event_type).sort()).toEqual([
      'directive.cancelled',
      'directive.created',
      'directive.created',
      'directive.reported',
    ]);
    await drainUntil(t, () => receiver.of('/directives').length >= 4);
    const got = receiver.of('/directives');
    for (const r of got) expect(r.verified).toBe(true);
    const data = (type: string) => got.filter((r) => r.event === type).map((r) => r.json.data);
    expect(data('directive.reported')).toEqual([
      expect.objectContaining({
        directive_id: reported,
        serial: d.serial,
        purpose: 'user_mtls',
        user: 'rep@example.com',
        outcome: 'failed',
        message: 'no smartcard reader',
      }),
    ]);
    expect(data('directive.cancelled')).toEqual([
      expect.objectContaining({ directive_id: cancelled, user: 'can@example.com' }),
    ]);
    expect(
      data('directive.created')
        .map((x) => (x as { directive_id: string }).directive_id)
        .sort(),
    ).toEqual([reported, cancelled].sort());
  });
});

import { Global, Module } from '@nestjs/common';
import { DnsResponder } from '@platform/egress/testing';
import { DataSource } from 'typeorm';
import { WEBHOOK_RESOLVER } from '../../src/modules/webhooks/webhook-http';
import { WEBHOOK_EGRESS_DENIALS_METRIC } from '../../src/modules/webhooks/webhook-metrics';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { createEndpoint, deliveryRows, deliveryWorker, startWebhookApp } from './webhook-app';
import { WebhookReceiver } from './webhook-receiver';

/**
 * The guard at send: the endpoint's name is resolved at every attempt and the connection
 * pinned to the checked address. An administrator allowed one internal host (127.0.0.2,
 * `CERTSVC_WEBHOOK_EGRESS_ALLOWLIST`); a victim listens on 127.0.0.1 at the same port.
 */
describe('Webhook delivery - request-forgery guard at send (DNS rebinding, allowlist, metadata)', () => {
  let t: TestApp;
  let admin: TestUser;
  let dns: DnsResponder;
  let good: WebhookReceiver;
  let victim: WebhookReceiver;
  let endpoint: { id: string };
  beforeAll(async () => {
    dns = await DnsResponder.start();
    good = await new WebhookReceiver().start('127.0.0.2');
    victim = await new WebhookReceiver().start('127.0.0.1', good.port);
    @Global()
    @Module({
      providers: [{ provide: WEBHOOK_RESOLVER, useValue: dns.resolver() }],
      exports: [WEBHOOK_RESOLVER],
    })
    class LoopbackDnsModule {}
    t = await startWebhookApp({
      env: { CERTSVC_WEBHOOK_EGRESS_ALLOWLIST: '127.0.0.2/32' },
      imports: [LoopbackDnsModule],
    });
    admin = await loginAdmin(t);
    dns.set('hooks.example.com', ['127.0.0.2']);
    endpoint = await createEndpoint(t, admin, {
      url: `http://hooks.example.com:${good.port}/hook`,
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([good.close(), victim.close(), dns.close()]);
  });

  async function sendTest(): Promise<string> {
    const res = await t.http
      .post(`/api/v1/admin/webhooks/${endpoint.id}/test`)
      .set(...bearer(admin.accessToken))
      .expect(202);
    const id = res.body.delivery_id as string;
    await deliveryWorker(t).drain();
    return id;
  }

  const rowOf = async (id: string) => (await deliveryRows(t, 'id = $1', [id]))[0];

  it('delivers to the allowed host', async () => {
    const id = await sendTest();
    expect(await rowOf(id)).toMatchObject({ status: 'delivered', last_response_code: 200 });
    expect(good.of('/hook')).toHaveLength(1);
  });

  it('refuses when the name rebinds to an address outside the allowlist (loopback victim)', async () => {
    dns.set('hooks.example.com', ['127.0.0.1']);
    const id = await sendTest();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_response_code: null });
    expect(row.last_error).toMatch(/^address_not_allowlisted/);
    expect(victim.received).toHaveLength(0);
  });

  it('refuses a metadata address even with local dialling allowed', async () => {
    dns.set('hooks.example.com', ['169.254.169.254']);
    const id = await sendTest();
    expect((await rowOf(id)).last_error).toMatch(/^address_not_allowed/);
    expect(victim.received).toHaveLength(0);
  });

  it('pins the connection to the checked address when the answer changes between queries', async () => {
    // The refused deliveries above stop retrying, so only the new one asks DNS.
    await t.app
      .get(DataSource)
      .query(`UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'pending'`);
    dns.set('hooks.example.com', (round) => (round === 0 ? ['127.0.0.2'] : ['127.0.0.1']));
    const before = good.of('/hook').length;
    const id = await sendTest();
    expect(await rowOf(id)).toMatchObject({ status: 'delivered' });
    expect(good.of('/hook').length).toBe(before + 1);
    expect(victim.received).toHaveLength(0);
    const metric = await t.metrics.registry.getSingleMetric(WEBHOOK_EGRESS_DENIALS_METRIC)?.get();
    const count = (reason: string) =>
      metric?.values.find((v) => v.labels['reason'] === reason)?.value ?? 0;
    expect(count('address_not_allowlisted')).toBeGreaterThanOrEqual(1);
    expect(count('address_not_allowed')).toBeGreaterThanOrEqual(1);
  });
});

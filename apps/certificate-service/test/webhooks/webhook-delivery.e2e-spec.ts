import { DataSource } from 'typeorm';
import { enrollDevice } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { WebhookDeliveriesRepository } from '../../src/modules/webhooks/webhook-deliveries.repository';
import { WEBHOOK_DELIVERIES_METRIC } from '../../src/modules/webhooks/webhook-metrics';
import {
  createEndpoint,
  deliveryRows,
  deliveryWorker,
  drainUntil,
  startWebhookApp,
} from './webhook-app';
import { WebhookReceiver } from './webhook-receiver';

describe('Webhook outbox - events written with their transaction, delivered signed, retried, failed', () => {
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
  // Each test works with its own endpoints; the others are disabled so they stay quiet.
  afterEach(async () => {
    await t.app.get(DataSource).query(`UPDATE webhook_endpoints SET enabled = false`);
  });

  it('fans each event out to the subscribed endpoints, signed, each delivered exactly once', async () => {
    const issuedOnly = await createEndpoint(t, admin, {
      url: receiver.url('/issued'),
      event_types: ['certificate.issued'],
    });
    const all = await createEndpoint(t, admin, { url: receiver.url('/all') });
    receiver.secret('/issued', issuedOnly.secret);
    receiver.secret('/all', all.secret);
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row.status).toBe('issued');
    await drainUntil(
      t,
      () => receiver.of('/all').length >= 3 && receiver.of('/issued').length >= 1,
    );

    const events = receiver.of('/all').map((r) => r.event);
    expect(events.sort()).toEqual(['certificate.issued', 'request.approved', 'request.created']);
    expect(receiver.of('/issued').map((r) => r.event)).toEqual(['certificate.issued']);
    for (const r of receiver.received) {
      expect(r.verified).toBe(true);
      expect(r.signature).toMatch(/^v1=[0-9a-f]{64}$/);
      expect(r.json).toMatchObject({ type: r.event, id: expect.any(String) });
    }
    const issued = receiver.of('/all').find((r) => r.event === 'certificate.issued')!;
    expect(issued.json.data).toMatchObject({
      serial: row.serial,
      request_id: device.requestId,
      purpose: 'wifi',
    });
    // The same event has one id, and each endpoint its own delivery (idempotency key).
    const issuedElsewhere = receiver.of('/issued')[0];
    expect(issuedElsewhere.json.id).toBe(issued.json.id);
    expect(issuedElsewhere.delivery).not.toBe(issued.delivery);
    // A signature checked with another secret fails.
    expect(receiver.of('/issued')[0].verified).toBe(true);

    // Nothing more is sent: a second drain finds nothing due.
    const before = receiver.received.length;
    expect(await deliveryWorker(t).drain()).toBe(0);
    expect(receiver.received.length).toBe(before);

    const log = await t.http
      .get(`/api/v1/admin/webhooks/${all.id}/deliveries?limit=10&page=1`)
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(log.body.total).toBe(3);
    for (const d of log.body.items) {
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, last_response_code: 200 });
    }
  });

  it('retries a receiver that fails, answers slowly, then accepts: attempts and codes recorded', async () => {
    const flaky = await createEndpoint(t, admin, {
      url: receiver.url('/flaky'),
      event_types: ['request.created'],
    });
    receiver.secret('/flaky', flaky.secret);
    receiver.on('/flaky', (n) =>
      n === 1 ? { status: 503 } : n === 2 ? { status: 200, delayMs: 1500 } : { status: 200 },
    );
    await enrollDevice(t);
    const [row] = await deliveryRows(t, 'endpoint_id = $1', [flaky.id]);
    await drainUntil(
      t,
      async () => (await deliveryRows(t, 'id = $1', [row.id]))[0].status !== 'pending',
    );
    const [done] = await deliveryRows(t, 'id = $1', [row.id]);
    expect(done).toMatchObject({ status: 'delivered', attempts: 3, last_response_code: 200 });
    // The receiver saw three requests for one delivery, and handles it once.
    const seen = receiver.of('/flaky');
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((r) => r.delivery))).toEqual(new Set([row.id]));
    expect(receiver.unique('/flaky')).toHaveLength(1);
    // The same body every attempt; a fresh timestamp and signature each time.
    expect(new Set(seen.map((r) => r.body)).size).toBe(1);
    expect(seen.every((r) => r.verified)).toBe(true);
  });

  it('gives up after CERTSVC_WEBHOOK_MAX_ATTEMPTS: a 500 receiver and a receiver that is down', async () => {
    const broken = await createEndpoint(t, admin, {
      url: receiver.url('/broken'),
      event_types: ['request.created'],
    });
    receiver.on('/broken', () => ({ status: 500 }));
    const down = await createEndpoint(t, admin, {
      url: 'http://127.0.0.1:9/down',
      event_types: ['request.created'],
    });
    await enrollDevice(t);
    const pendingOf = async () =>
      deliveryRows(t, `endpoint_id = ANY($1::uuid[])`, [[broken.id, down.id]]);
    await drainUntil(t, async () => (await pendingOf()).every((r) => r.status !== 'pending'));
    const rows = await pendingOf();
    const brokenRow = rows.find((r) => r.endpoint_id === broken.id)!;
    const downRow = rows.find((r) => r.endpoint_id === down.id)!;
    expect(brokenRow).toMatchObject({
      status: 'failed',
      attempts: 4,
      last_response_code: 500,
      last_error: 'http_500',
    });
    expect(downRow).toMatchObject({ status: 'failed', attempts: 4, last_response_code: null });
    expect(downRow.last_error).toMatch(/^connect_failed/);
    expect(receiver.of('/broken')).toHaveLength(4);
    const metric = await t.metrics.registry.getSingleMetric(WEBHOOK_DELIVERIES_METRIC)?.get();
    const value = (outcome: string) =>
      metric?.values.find((v) => v.labels['outcome'] === outcome)?.value ?? 0;
    expect(value('failed')).toBeGreaterThanOrEqual(2);
    expect(value('retry')).toBeGreaterThanOrEqual(6);
    expect(value('delivered')).toBeGreaterThanOrEqual(1);
  });

  it('a rolled-back approval writes no outbox row and sends nothing', async () => {
    const watcher = await createEndpoint(t, admin, { url: receiver.url('/rollback') });
    const device = await enrollDevice(t);
    await drainUntil(t, () => receiver.of('/rollback').length === 1);
    const db = t.app.get(DataSource);
    // The licence ledger write comes last in the issuance transaction: fail it.
    await db.query(`CREATE OR REPLACE FUNCTION webhook_test_fail() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'ledger write refused by the test'; END $$ LANGUAGE plpgsql`);
    await db.query(`CREATE TRIGGER webhook_test_fail BEFORE INSERT ON license_ledger
      FOR EACH ROW EXECUTE FUNCTION webhook_test_fail()`);
    try {
      await t.http
        .post('/api/v1/requests/approve')
        .set(...bearer(admin.accessToken))
        .send({ request_ids: [device.requestId] })
        .expect(500);
    } finally {
      await db.query(`DROP TRIGGER webhook_test_fail ON license_ledger`);
    }
    const [request] = (await db.query(`SELECT status FROM certificate_requests WHERE id = $1`, [
      device.requestId,
    ])) as { status: string }[];
    expect(request.status).toBe('pending');
    const rows = await deliveryRows(t, 'endpoint_id = $1', [watcher.id]);
    expect(rows.map((r) => r.event_type)).toEqual(['request.created']);
    await deliveryWorker(t).drain();
    expect(receiver.of('/rollback').map((r) => r.event)).toEqual(['request.created']);
  });

  it('reports rejection, revocation, block and unblock', async () => {
    const audit = await createEndpoint(t, admin, { url: receiver.url('/audit') });
    const rejected = await enrollDevice(t);
    await t.http
      .post('/api/v1/requests/reject')
      .set(...bearer(admin.accessToken))
      .send({ request_ids: [rejected.requestId], reason: 'not ours' })
      .expect(200);
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    await t.http
      .post(`/api/v1/devices/${device.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({})
      .expect((res) => expect([200, 207]).toContain(res.status));
    await t.http
      .post(`/api/v1/devices/${device.serial}/unblock`)
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(200);
    await drainUntil(t, () => receiver.of('/audit').length >= 8);
    const byType = new Map(receiver.of('/audit').map((r) => [r.event, r.json.data]));
    expect(byType.get('request.rejected')).toMatchObject({
      request_id: rejected.requestId,
      reason: 'not ours',
    });
    expect(byType.get('certificate.revoked')).toMatchObject({ serial: row.serial });
    expect(byType.get('device.blocked')).toMatchObject({ serial: device.serial });
    expect(byType.get('device.unblocked')).toMatchObject({ serial: device.serial });
    expect(audit.id).toBeDefined();
  });

  it('a claim abandoned by a dead worker becomes due after the lease; a late record changes nothing', async () => {
    const lease = await createEndpoint(t, admin, {
      url: receiver.url('/lease'),
      event_types: ['request.created'],
    });
    await enrollDevice(t);
    const deliveries = t.app.get(WebhookDeliveriesRepository);
    // A worker claims the row and dies before sending or recording anything.
    const claimed = await deliveries.claim(1000, 400);
    const mine = claimed.filter((c) => c.endpointId === lease.id);
    expect(mine).toHaveLength(1);
    expect(await deliveryWorker(t).drain()).toBe(0);
    expect(receiver.of('/lease')).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 450));
    await drainUntil(t, () => receiver.of('/lease').length === 1);
    const [row] = await deliveryRows(t, 'endpoint_id = $1', [lease.id]);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
    // The dead worker's attempt, recorded late, does not overwrite the newer outcome.
    await deliveries.record([
      {
        id: mine[0].id,
        attempts: mine[0].attempts,
        outcome: 'retry',
        code: 503,
        error: 'http_503',
        nextAttemptAt: new Date(),
      },
    ]);
    expect((await deliveryRows(t, 'id = $1', [row.id]))[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_response_code: 200,
    });
  });

  it('concurrent drains (N workers) never send a delivery twice; bulk approval fans out in one statement', async () => {
    const bulk = await createEndpoint(t, admin, {
      url: receiver.url('/bulk'),
      event_types: ['request.approved'],
    });
    const devices = await Promise.all(Array.from({ length: 40 }, () => enrollDevice(t)));
    const db = t.app.get(DataSource);
    // Counts INSERT statements into the outbox (not rows) during the bulk approval.
    await db.query(`CREATE TABLE webhook_test_statements (n int)`);
    await db.query(`CREATE OR REPLACE FUNCTION webhook_test_count() RETURNS trigger AS $$
      BEGIN INSERT INTO webhook_test_statements VALUES (1); RETURN NULL; END $$ LANGUAGE plpgsql`);
    await db.query(`CREATE TRIGGER webhook_test_count AFTER INSERT ON webhook_deliveries
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_test_count()`);
    let rows;
    try {
      rows = await approveRows(
        t,
        admin.accessToken,
        devices.map((d) => d.requestId),
      );
    } finally {
      await db.query(`DROP TRIGGER webhook_test_count ON webhook_deliveries`);
    }
    expect(rows.every((r) => r.status === 'issued')).toBe(true);
    // 40 approvals, 80 events (approved + issued), one INSERT ... SELECT.
    expect(await db.query(`SELECT count(*)::int AS n FROM webhook_test_statements`)).toEqual([
      { n: 1 },
    ]);
    const worker = deliveryWorker(t);
    await Promise.all([worker.drain(), worker.drain(), worker.drain()]);
    await drainUntil(t, () => receiver.of('/bulk').length >= 40);
    expect(receiver.of('/bulk')).toHaveLength(40);
    expect(receiver.unique('/bulk')).toHaveLength(40);
    expect(
      new Set(receiver.of('/bulk').map((r) => (r.json.data as { request_id: string }).request_id)),
    ).toEqual(new Set(devices.map((d) => d.requestId)));
    expect(bulk.id).toBeDefined();
  });
});

// test-lane: waiting — a claimed delivery due again only after its lease, a receiver's back-off:
// ~17 of its ~23 s are waits (tools/test/lanes.js).
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { startServiceProcess, waitFor, WaitAborted, type ServiceProcess } from '@platform/testing';
import { DataSource } from 'typeorm';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { WorkerModule } from '../../src/worker/worker.module';
import { loginAdmin, type TestUser } from '../support/sessions';
import { LogCapture } from '../support/log-capture';
import { TEST_CA_KEY_ENC_KEY, TEST_JWT_SECRET, type TestApp } from '../support/test-app';
import {
  createEndpoint,
  deliveryRows,
  LOOPBACK_EGRESS,
  startWebhookApp,
  TEST_WEBHOOK_KEY,
} from './webhook-app';
import { WebhookReceiver } from './webhook-receiver';
import { bearer } from '../support/sessions';

describe('Webhook worker - the delivery and retention tasks of the real worker', () => {
  let t: TestApp;
  let admin: TestUser;
  let receiver: WebhookReceiver;
  const processes: ServiceProcess[] = [];
  let context: INestApplicationContext | undefined;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startWebhookApp();
    admin = await loginAdmin(t);
  });
  afterAll(async () => {
    await context?.close();
    await Promise.all(processes.map((p) => p.kill()));
    await t.close();
    await receiver.close();
  });

  const workerEnv = {
    CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
    CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
    CERTSVC_LOG_LEVEL: 'info',
    CERTSVC_WEBHOOKS_ENABLED: 'true',
    CERTSVC_WEBHOOK_ENC_KEY: TEST_WEBHOOK_KEY,
    CERTSVC_WEBHOOK_POLL_SECONDS: '1',
    // Lease of a claim: ceil(2 x 200 / 16) x 0.5 s + 5 s = 17.5 s.
    CERTSVC_WEBHOOK_EGRESS_TIMEOUT_MS: '500',
    ...LOOPBACK_EGRESS,
  };

  function startWorker(): ServiceProcess {
    const worker = startServiceProcess({
      entry: 'apps/certificate-service/src/worker.ts',
      env: { ...workerEnv, CERTSVC_DATABASE_URL: t.db.url },
    });
    processes.push(worker);
    return worker;
  }

  it('a worker killed (SIGKILL) in the middle of a delivery loses nothing: the claim expires, another worker delivers, the receiver dedups', async () => {
    const { id } = await createEndpoint(t, admin, { url: receiver.url('/killed') });
    const holder: { first?: ServiceProcess } = {};
    // The first request hangs; the worker sending it is killed while it waits for the answer.
    receiver.on('/killed', (n) => {
      if (n === 1) {
        void holder.first?.kill();
        return 'hang';
      }
      return { status: 200 };
    });
    const queued = await t.http
      .post(`/api/v1/admin/webhooks/${id}/test`)
      .set(...bearer(admin.accessToken))
      .expect(202);
    const deliveryId = queued.body.delivery_id as string;
    const first = startWorker();
    holder.first = first;
    await waitFor(
      () => {
        if (!first.running() && receiver.of('/killed').length === 0) {
          throw new WaitAborted(`worker exited:\n${first.output()}`);
        }
        expect(receiver.of('/killed')).toHaveLength(1);
      },
      { timeoutMs: 60_000, what: 'the first worker to send the delivery' },
    );
    expect((await first.ended).signal).toBe('SIGKILL');
    // Claimed, never recorded: still pending, no attempt counted, due again after the lease.
    const [claimed] = await deliveryRows(t, 'id = $1', [deliveryId]);
    expect(claimed).toMatchObject({ status: 'pending', attempts: 0 });

    const second = startWorker();
    await waitFor(
      async () => {
        if (!second.running()) throw new WaitAborted(`worker exited:\n${second.output()}`);
        const [row] = await deliveryRows(t, 'id = $1', [deliveryId]);
        expect(row).toMatchObject({ status: 'delivered', attempts: 1, last_response_code: 200 });
      },
      { timeoutMs: 60_000, intervalMs: 250, what: 'the second worker to deliver after the lease' },
    );
    expect(receiver.of('/killed').map((r) => r.delivery)).toEqual([deliveryId, deliveryId]);
    expect(receiver.unique('/killed')).toHaveLength(1);
    expect(await second.stop()).toBe(true);
  }, 120_000);

  it('purges deliveries older than CERTSVC_WEBHOOK_RETENTION_DAYS, whatever their status', async () => {
    const { id } = await createEndpoint(t, admin, { url: receiver.url('/old') });
    const db = t.app.get(DataSource);
    const insert = (age: string, status: string) =>
      db.query(
        `INSERT INTO webhook_deliveries (endpoint_id, event_type, event_id, payload, status, created_at, next_attempt_at)
         VALUES ($1, 'webhook.test', gen_random_uuid(), '{}', $2, now() - $3::interval, now() + interval '1 day')
         RETURNING id`,
        [id, status, age],
      ) as Promise<{ id: string }[]>;
    const gone = [
      ...(await insert('31 days', 'delivered')),
      ...(await insert('40 days', 'failed')),
      ...(await insert('31 days', 'pending')),
    ].map((r) => r.id);
    const kept = [...(await insert('29 days', 'delivered')), ...(await insert('1 hour', 'failed'))];
    const config = loadCertsvcConfig({
      ...workerEnv,
      CERTSVC_DATABASE_URL: t.db.url,
      CERTSVC_WEBHOOK_RETENTION_DAYS: '30',
    });
    context = await NestFactory.createApplicationContext(
      WorkerModule.forRoot(
        {
          config,
          logger: createCertsvcLogger(config, new LogCapture()),
          metrics: new CertsvcMetrics({ processMetrics: false }),
        },
        { crlRefreshEveryMs: 60_000, webhookDeliveryEveryMs: 60_000, webhookRetentionEveryMs: 50 },
      ),
      { logger: false },
    );
    await waitFor(
      async () => {
        const left = (await db.query(
          `SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[])`,
          [gone],
        )) as unknown[];
        expect(left).toEqual([]);
      },
      { timeoutMs: 20_000, what: 'the retention purge' },
    );
    const still = (await db.query(`SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[])`, [
      kept.map((r) => r.id),
    ])) as unknown[];
    expect(still).toHaveLength(2);
  });
});

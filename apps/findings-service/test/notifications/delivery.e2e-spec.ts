// test-lane: waiting — retries after back-off and an 8 s delivery lease running out through the
// real runner: ~17 of its ~29 s are waits (tools/test/lanes.js).
import type { INestApplicationContext } from '@nestjs/common';
import {
  FIXTURE_NODE_PATH,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
} from '@platform/plugin-protocol/testing';
import { startServiceProcess, waitFor, type ServiceProcess } from '@platform/testing';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { NotificationsRepository } from '../../src/modules/notifications/notifications.repository';
import { RUNNER_TOKEN, startRunnerProcess } from '../catalog-plugins/support/catalog-plugin-lab';
import { bearer } from '../support/catalog';
import { freshProduct } from '../support/findings-seed';
import {
  startIngestion,
  startWorker,
  workerEnv,
  type IngestionStack,
} from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { configureChannel, deliveriesOf, sarifWithLevels, type StoredDelivery } from './support';

/**
 * Delivery (modules/notifications/notification-delivery.service.ts) through the real plugin
 * runner to the fixture native channel (libs/plugin-protocol/testing), which records every
 * idempotency key it receives in its `record_file` before it answers: what reached the channel.
 */
const publisher = publisherKey();
const fixture = signedFixture(buildNativeChannelFixture('normal', 'notifications'), publisher, {
  id: 'fixture-channel',
  settings: [
    { name: 'mode', type: 'string', per_project: true },
    { name: 'record_file', type: 'string', per_project: true },
    { name: 'delay_ms', type: 'string', per_project: true },
  ],
});

let runner: ServiceProcess;
let stack: IngestionStack;
let worker: INestApplicationContext | undefined;
let channel: string;
let dir: string;
let env: Record<string, string>;
let scanners = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notify-e2e-'));
  const started = await startRunnerProcess({
    PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
    PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
  });
  runner = started.runner;
  env = {
    PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
    PUBLIC_WEB_URL: 'https://findings.example/',
    NOTIFICATION_FEED_INTERVAL_MS: '200',
    NOTIFICATION_QUIET_SECONDS: '1',
    NOTIFICATION_BACKOFF_BASE_SECONDS: '2',
    NOTIFICATION_RECONCILE_INTERVAL_MS: '1000',
    NOTIFICATION_LEASE_SECONDS: '8',
  };
  stack = await startIngestion({ env });
  worker = await startWorker(stack.t, stack.env.vars);
  const db = stack.t.app.get(DataSource);
  const [source] = (await db.query(
    `INSERT INTO plugin_sources (name, catalog_url, public_key, is_active, allows_native)
     VALUES ('notification test source', 'https://catalog.test.example/c.json', $1, true, true)
     RETURNING id`,
    [publisher.publicKeyPem],
  )) as { id: string }[];
  await db.query(
    `INSERT INTO plugin_artifacts (digest, content, size) VALUES ($1, $2, $3)
     ON CONFLICT (digest) DO NOTHING`,
    [fixture.digest, fixture.artifact, fixture.artifact.length],
  );
  const [installed] = (await db.query(
    `INSERT INTO installed_plugins (source_type, marketplace_id, catalog_plugin_id, runtime,
            enabled, version, artifact_sha256, manifest, signature, capabilities)
     VALUES ('marketplace', $1, 'fixture-channel', 'native', true, '1.0.0', $2, $3, $4,
             '{notification_channel}') RETURNING id`,
    [source!.id, fixture.digest, fixture.manifestBytes, fixture.signature.toString('base64')],
  )) as { id: string }[];
  channel = installed!.id;
}, 180_000);

afterAll(async () => {
  await worker?.close();
  await stack?.close();
  await runner?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The keys that reached the channel, one per Deliver it received. */
function received(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** A project whose fixture channel runs in `mode`; an upload with one HIGH finding. */
async function notifiedProject(settings: Record<string, unknown>) {
  const product = await freshProduct(stack.t, stack.admin);
  const recordFile = join(dir, `${product.project_id}.keys`);
  await configureChannel(stack.t, product.project_id, channel, {
    enabled: true,
    record_file: recordFile,
    ...settings,
  });
  scanners += 1;
  const id = await uploadReport(
    stack.t,
    bearer(stack.admin),
    product.id,
    sarifWithLevels(['error'], `DeliveryScanner${scanners}`),
  );
  expect((await waitForReport(stack.t, bearer(stack.admin), id, 120_000)).status).toBe('completed');
  return { product, recordFile };
}

async function delivery(
  projectId: string,
  done: (d: StoredDelivery) => boolean,
  timeoutMs = 60_000,
): Promise<StoredDelivery> {
  return waitFor(
    async () => {
      const [d, ...more] = await deliveriesOf(stack.t, projectId);
      if (more.length > 0) throw new Error(`more than one delivery: ${more.length + 1}`);
      if (!d || !done(d)) throw new Error(`delivery: ${JSON.stringify(d)}`);
      return d;
    },
    { timeoutMs, intervalMs: 100, what: 'the delivery' },
  );
}

describe('Notifications - delivery through the plugin runner', () => {
  it('delivers a notification exactly once, with its idempotency key and the event', async () => {
    const { product, recordFile } = await notifiedProject({ mode: 'ok' });
    const d = await delivery(product.project_id, (x) => x.state === 'delivered');
    expect(d).toMatchObject({ attempts: 1, last_error_code: null });
    expect(received(recordFile)).toEqual([d.idempotency_key]);
    const result = d.result as {
      delivered: boolean;
      result: { context: { event_id: string }; event: Record<string, unknown> };
    };
    expect(result.delivered).toBe(true);
    expect(result.result.context.event_id).toBe(d.id);
    const event = result.result.event;
    expect(event).toMatchObject({
      schema: 'findsvc.notification/1',
      kind: 'new_findings',
      notification_id: d.notification_id,
      project: {
        id: product.project_id,
        url: `https://findings.example/projects/${product.project_id}`,
      },
      total: 1,
      counts: { HIGH: 1 },
      digest: false,
      more: 0,
    });
    expect(JSON.stringify(event)).not.toContain('description');
    // Nothing more arrives later (no second job, no reconciler re-add of a finished row).
    await new Promise((r) => setTimeout(r, 2_500));
    expect(received(recordFile)).toEqual([d.idempotency_key]);
  });

  it('retries a transient failure with back-off, then delivers', async () => {
    const { product, recordFile } = await notifiedProject({ mode: 'fail' });
    const failed = await delivery(
      product.project_id,
      (x) => x.state === 'pending' && x.attempts === 1,
    );
    expect(failed.last_error_code).toBe('plugin_error');
    const [{ wait }] = (await stack.t.app.get(DataSource).query(
      `SELECT EXTRACT(EPOCH FROM next_attempt_at - updated_at)::float8 AS wait
         FROM notification_deliveries WHERE id = $1`,
      [failed.id],
    )) as { wait: number }[];
    // NOTIFICATION_BACKOFF_BASE_SECONDS=2 after the first attempt, ± 20 %.
    expect(wait).toBeGreaterThanOrEqual(1.6);
    expect(wait).toBeLessThanOrEqual(2.4);
    await configureChannel(stack.t, product.project_id, channel, {
      enabled: true,
      record_file: recordFile,
      mode: 'ok',
    });
    const d = await delivery(product.project_id, (x) => x.state === 'delivered');
    expect(d.attempts).toBeGreaterThanOrEqual(2);
    const keys = received(recordFile);
    expect(keys).toHaveLength(d.attempts);
    expect(new Set(keys)).toEqual(new Set([d.idempotency_key]));
  });

  it('a permanent failure is failed at once, its reason kept', async () => {
    const { product, recordFile } = await notifiedProject({ mode: 'reject' });
    const d = await delivery(product.project_id, (x) => x.state === 'failed');
    expect(d).toMatchObject({ attempts: 1, last_error_code: 'rejected' });
    expect(d.last_error_message).toContain('chat not found');
    // Visible to the project's administrators through the deliveries route.
    const listed = await request(stack.t.url)
      .get(`/api/v1/projects/${product.project_id}/notification-deliveries?state=failed`)
      .set('Authorization', `Bearer ${stack.admin.token}`)
      .expect(200);
    expect(listed.body.data.items).toEqual([
      expect.objectContaining({
        id: d.id,
        state: 'failed',
        last_error_code: 'rejected',
        catalog_plugin_id: 'fixture-channel',
      }),
    ]);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(received(recordFile)).toEqual([d.idempotency_key]);
  });

  it('a channel switched off before its delivery runs is cancelled, nothing sent', async () => {
    const product = await freshProduct(stack.t, stack.admin);
    const recordFile = join(dir, `${product.project_id}.keys`);
    await configureChannel(stack.t, product.project_id, channel, {
      enabled: true,
      record_file: recordFile,
      mode: 'ok',
    });
    const db = stack.t.app.get(DataSource);
    // A sealed notification and its pending delivery, due later: the channel goes off first.
    const [n] = (await db.query(
      `INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
              opened_at, last_added_at, sealed_at)
       VALUES (gen_random_uuid(), $1, 'new_findings', 'sealed', '{"HIGH": 1}',
               '[{"id":"00000000-0000-4000-8000-000000000001","title":"t","severity":"HIGH","status":"new","product_id":"p","product":"api","location":null}]',
               1, now(), now(), now()) RETURNING id`,
      [product.project_id],
    )) as { id: string }[];
    await db.query(
      `INSERT INTO notification_deliveries (id, notification_id, project_id, installed_plugin_id,
              idempotency_key, threshold, state, attempts, next_attempt_at, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4,
               '{"min_severity":"INFO","notify_on_close":false,"fixed_min_severity":null}',
               'pending', 0, now() - interval '40 seconds', now(), now())`,
      [n!.id, product.project_id, channel, `ntf:${n!.id}:${channel}`],
    );
    await configureChannel(stack.t, product.project_id, channel, {
      enabled: false,
      record_file: recordFile,
    });
    // The reconciler picks the overdue row up.
    const d = await delivery(product.project_id, (x) => x.state === 'cancelled');
    expect(d.last_error_code).toBe('channel_disabled');
    expect(received(recordFile)).toEqual([]);
  });

  it('claims sharing a statement: two jobs of one delivery in one turn — one attempt gets it with its context and installation; the finish checks the lease', async () => {
    const product = await freshProduct(stack.t, stack.admin);
    const db = stack.t.app.get(DataSource);
    const [row] = (await db.query(
      `WITH n AS (
         INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
                opened_at, last_added_at, sealed_at)
         VALUES (gen_random_uuid(), $1::uuid, 'new_findings', 'sealed', '{"HIGH": 1}', '[]', 1, now(),
                 now(), now()) RETURNING id)
       INSERT INTO notification_deliveries (id, notification_id, project_id, installed_plugin_id,
              idempotency_key, threshold, state, attempts, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), n.id, $1::uuid, $2::uuid, 'ntf:' || n.id || ':' || $2::text,
              '{"min_severity": "INFO", "notify_on_close": false, "fixed_min_severity": null}',
              'pending', 0, now(), now(), now()
         FROM n RETURNING id::text AS id`,
      [product.project_id, channel],
    )) as { id: string }[];
    const id = row!.id;
    // A repository of its own (its own statement batches), on the test's database.
    const repository = new NotificationsRepository(db);
    const claims = await Promise.all([
      repository.claim(id, 'test-owner-a', 30),
      repository.claim(id, 'test-owner-a', 30),
      repository.claim(id, 'test-owner-b', 30),
    ]);
    const won = claims.flatMap((c, i) => (c ? [i] : []));
    expect(won).toHaveLength(1);
    const claimed = claims[won[0]!]!;
    const owner = won[0] === 2 ? 'test-owner-b' : 'test-owner-a';
    expect(claimed).toMatchObject({ id, projectId: product.project_id, state: 'delivering' });
    expect(claimed.context).toMatchObject({
      kind: 'new_findings',
      project: { id: product.project_id },
      channelSettings: null,
    });
    expect(claimed.installation?.artifactSha256).toBe(fixture.digest);
    expect(claimed.installation?.capabilities).toEqual(['notification_channel']);
    expect(Buffer.compare(claimed.installation!.manifest, fixture.manifestBytes)).toBe(0);
    // Taken: a later claim gets nothing; a finish without the lease writes nothing.
    expect(await repository.claim(id, 'test-owner-c', 30)).toBeNull();
    const finishes = await Promise.all([
      repository.finishDelivered(id, 'test-owner-c', { delivered: true }),
      repository.finishDelivered(id, owner, { delivered: true, via: 'batch' }),
    ]);
    expect(finishes).toEqual([false, true]);
    const [stored] = (await db.query(
      `SELECT state, attempts, result, lease_owner FROM notification_deliveries WHERE id = $1`,
      [id],
    )) as Record<string, unknown>[];
    expect(stored).toEqual({
      state: 'delivered',
      attempts: 1,
      result: { delivered: true, via: 'batch' },
      lease_owner: null,
    });
  });

  it('a worker killed mid-delivery: another finishes after the lease, the channel sees the key once', async () => {
    await worker?.close();
    worker = undefined;
    const start = () =>
      startServiceProcess({
        entry: 'apps/findings-service/src/worker.ts',
        env: { ...process.env, ...workerEnv(stack.t, stack.env.vars), LOG_LEVEL: 'warn' },
      });
    const first = start();
    let second: ServiceProcess | undefined;
    try {
      const product = await freshProduct(stack.t, stack.admin);
      const recordFile = join(dir, `${product.project_id}.keys`);
      await configureChannel(stack.t, product.project_id, channel, {
        enabled: true,
        record_file: recordFile,
        mode: 'slow',
        delay_ms: '3000',
      });
      const id = await uploadReport(
        stack.t,
        bearer(stack.admin),
        product.id,
        sarifWithLevels(['error'], 'KillScanner'),
      );
      await waitForReport(stack.t, bearer(stack.admin), id, 120_000);
      // The channel holds the request: the worker is killed while it waits for the answer.
      await waitFor(() => expect(received(recordFile)).toHaveLength(1), {
        timeoutMs: 90_000,
        intervalMs: 20,
        what: 'the delivery in flight',
      });
      await first.kill();
      const inFlight = await delivery(product.project_id, (x) => x.state === 'delivering');
      second = start();
      const d = await delivery(product.project_id, (x) => x.state === 'delivered', 90_000);
      expect(d.id).toBe(inFlight.id);
      // Re-sent with the same key; the runner answered from its memory of the first call.
      expect(received(recordFile)).toEqual([d.idempotency_key]);
      expect(d.result).toMatchObject({ delivered: true, duplicate: true });
    } finally {
      await first.kill();
      await second?.stop();
    }
  }, 240_000);
});

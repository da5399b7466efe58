import type { INestApplicationContext } from '@nestjs/common';
import {
  FIXTURE_NODE_PATH,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
} from '@platform/plugin-protocol/testing';
import { addJob } from '@platform/queue';
import { waitFor, type ServiceProcess } from '@platform/testing';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import {
  deliverJobId,
  NOTIFICATION_DELIVER,
} from '../../src/modules/notification-queue/notification-deliver.job';
import { NotificationQueue } from '../../src/modules/notification-queue/notification-queue.provider';
import { RUNNER_TOKEN, startRunnerProcess } from '../catalog-plugins/support/catalog-plugin-lab';
import { freshProduct } from '../support/findings-seed';
import { startIngestion, startWorker, type IngestionStack } from '../support/ingestion-env';
import { configureChannel } from './support';

/**
 * Three worker replicas (each its own Nest context, Redis connections, lease owner and metrics;
 * one of them the leader) share 2 000 deliveries, each queued twice under two job ids — as a
 * reconciler racing the fan-out would. The fixture channel (libs/plugin-protocol/testing) records
 * every idempotency key it is asked to deliver: each must arrive exactly once.
 */
jest.setTimeout(300_000);

const COUNT = 2_000;
const publisher = publisherKey();
const fixture = signedFixture(buildNativeChannelFixture('normal', 'replicas'), publisher, {
  id: 'replica-channel',
  settings: [
    { name: 'mode', type: 'string', per_project: true },
    { name: 'record_file', type: 'string', per_project: true },
  ],
});

let runner: ServiceProcess;
let stack: IngestionStack;
const workers: INestApplicationContext[] = [];
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notify-replicas-'));
  const started = await startRunnerProcess({
    PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
    PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
    PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE: '600000',
  });
  runner = started.runner;
  stack = await startIngestion({
    env: {
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      PUBLIC_WEB_URL: 'https://findings.example/',
      NOTIFICATION_CONCURRENCY: '16',
      NOTIFICATION_RECONCILE_INTERVAL_MS: '1000',
    },
  });
  for (let i = 0; i < 3; i++) workers.push(await startWorker(stack.t, stack.env.vars));
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await stack?.close();
  await runner?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const deliveredBy = async (worker: INestApplicationContext): Promise<number> => {
  const counter = worker
    .get(FindingsMetrics)
    .registry.getSingleMetric('findsvc_notification_deliveries_total') as
    Counter<'outcome'> | undefined;
  const values = (await counter?.get())?.values ?? [];
  return values.find((v) => v.labels.outcome === 'delivered')?.value ?? 0;
};

describe('Notifications - three worker replicas', () => {
  it('2 000 deliveries, each queued twice: every key reaches the channel exactly once, shared by the replicas', async () => {
    const db = stack.t.app.get(DataSource);
    const product = await freshProduct(stack.t, stack.admin);
    const recordFile = join(dir, 'keys');
    await db.query(
      `INSERT INTO plugin_artifacts (digest, content, size) VALUES ($1, $2, $3)
       ON CONFLICT (digest) DO NOTHING`,
      [fixture.digest, fixture.artifact, fixture.artifact.length],
    );
    const [source] = (await db.query(
      `INSERT INTO plugin_sources (name, catalog_url, public_key, is_active, allows_native)
       VALUES ('replicas test source', 'https://catalog.test.example/r.json', $1, true, true)
       RETURNING id`,
      [publisher.publicKeyPem],
    )) as { id: string }[];
    const [installed] = (await db.query(
      `INSERT INTO installed_plugins (source_type, marketplace_id, catalog_plugin_id, runtime,
              enabled, version, artifact_sha256, manifest, signature, capabilities)
       VALUES ('marketplace', $1, 'replica-channel', 'native', true, '1.0.0', $2, $3, $4,
               '{notification_channel}') RETURNING id`,
      [source?.id, fixture.digest, fixture.manifestBytes, fixture.signature.toString('base64')],
    )) as { id: string }[];
    const pluginId = installed?.id as string;
    await configureChannel(stack.t, product.project_id, pluginId, {
      enabled: true,
      record_file: recordFile,
    });
    // 2 000 sealed single-finding notifications with one pending delivery each (set-based).
    const rows = (await db.query(
      `WITH n AS (
         INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
                opened_at, last_added_at, sealed_at)
         SELECT gen_random_uuid(), $1::uuid, 'new_findings', 'sealed', '{"HIGH": 1}'::jsonb,
                jsonb_build_array(jsonb_build_object('id', gen_random_uuid(),
                  'title', 'Replica finding ' || i, 'severity', 'HIGH', 'status', 'new',
                  'product_id', $3::text, 'product', 'replicas', 'location', 'src/r' || i || '.ts:1')),
                1, now(), now(), now()
           FROM generate_series(1, $4::int) AS i
         RETURNING id)
       INSERT INTO notification_deliveries (id, notification_id, project_id, installed_plugin_id,
              idempotency_key, threshold, state, attempts, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), n.id, $1::uuid, $2::uuid, 'ntf:' || n.id || ':' || $2::text,
              '{"min_severity": "INFO", "notify_on_close": false, "fixed_min_severity": null}'::jsonb,
              'pending', 0, now(), now(), now()
         FROM n RETURNING id::text AS id, idempotency_key`,
      [product.project_id, pluginId, product.id, COUNT],
    )) as { id: string; idempotency_key: string }[];
    expect(rows).toHaveLength(COUNT);
    const queue = stack.t.app.get(NotificationQueue, { strict: false });
    for (const suffix of [undefined, 'twin']) {
      for (let i = 0; i < rows.length; i += 250) {
        await Promise.all(
          rows
            .slice(i, i + 250)
            .map((r) =>
              addJob(
                queue.queue,
                NOTIFICATION_DELIVER,
                { deliveryId: r.id },
                { jobId: deliverJobId(r.id, 0, suffix), removeOnComplete: true },
              ),
            ),
        );
      }
    }

    await waitFor(
      async () => {
        const [state] = (await db.query(
          `SELECT count(*) FILTER (WHERE state = 'delivered')::int AS delivered,
                  count(*) FILTER (WHERE state NOT IN ('delivered', 'pending', 'delivering'))::int AS other
             FROM notification_deliveries WHERE project_id = $1`,
          [product.project_id],
        )) as { delivered: number; other: number }[];
        expect(state?.other).toBe(0);
        if (state?.delivered !== COUNT) throw new Error(`delivered ${state?.delivered}`);
      },
      { timeoutMs: 240_000, intervalMs: 500, what: 'all 2 000 deliveries' },
    );
    const received = existsSync(recordFile)
      ? readFileSync(recordFile, 'utf8').split('\n').filter(Boolean)
      : [];
    expect(received).toHaveLength(COUNT);
    expect(new Set(received)).toEqual(new Set(rows.map((r) => r.idempotency_key)));
    const attempts = (await db.query(
      `SELECT max(attempts)::int AS most FROM notification_deliveries WHERE project_id = $1`,
      [product.project_id],
    )) as { most: number }[];
    expect(attempts[0]?.most).toBe(1);
    // Every replica took part; together they delivered each once.
    const perWorker = await Promise.all(workers.map(deliveredBy));
    expect(perWorker.reduce((a, b) => a + b, 0)).toBe(COUNT);
    for (const n of perWorker) expect(n).toBeGreaterThan(0);
  });
});

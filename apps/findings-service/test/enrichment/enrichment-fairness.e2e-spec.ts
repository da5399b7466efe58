// test-bundle: alone
// Its first test compares two p95s of job times, measured a minute apart, against a 1 s bound: it
// runs alone, as in every full run before bundles took files with jest.setTimeout. In a bundle it
// missed the bound once by 46 ms (1 046 ms); alone it misses it on a heavily loaded machine too.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { artifactDigest, signManifest, witDirectory, WIT_VERSION } from '@platform/plugin-sdk';
import { publisherKey } from '@platform/plugin-protocol/testing';
import { createRedisConnection } from '@platform/queue';
import { waitFor, type ServiceProcess } from '@platform/testing';
import { ENRICHMENT_QUEUE } from '../../src/modules/enrichment/enrichment.job';
import {
  RUNNER_TOKEN,
  startRunnerProcess,
  type SignedCatalogPlugin,
} from '../catalog-plugins/support/catalog-plugin-lab';
import {
  networkSarif,
  seedInstalledPlugin,
} from '../catalog-plugins/support/installed-plugin-seed';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { freshProduct, type Product } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';

// Fairness between enrichers (issue 26 item 4, docs/plugins/fairness.md): a
// looping enricher and a good one share the worker's enrichment queue. Both are 2 KB
// components written in WebAssembly text (apps/plugin-runner/test/wasm/plugins/tiny): the good
// one answers one tag at once, the looping one spins until the runner's deadline (300 ms
// here) stops it. The real runner, API and worker run them.
jest.setTimeout(300_000);

const publisher = publisherKey();
const TINY_SCRIPT = join(__dirname, '../../../plugin-runner/test/wasm/plugins/tiny/build-tiny.mjs');
/** Reports per phase; each makes one job per enabled enricher. */
const REPORTS = 20;
/** New findings per report (one job each); a looping enricher's run stops after 3 of them. */
const FINDINGS_PER_REPORT = 4;
/** p95s below this are noise on a shared machine (a job of 4 calls takes ~100 ms alone). */
const P95_FLOOR_MS = 500;

let runner: ServiceProcess;
let stack: IngestionStack;
let product: Product;
let goodId: string;
let loopId: string;
let queue: Queue;
let connection: Redis | undefined;
let reportRound = 0;

async function tinyPlugin(id: string, mode: 'tags' | 'loop'): Promise<SignedCatalogPlugin> {
  const dir = await mkdtemp(join(tmpdir(), `fairness-${mode}-`));
  try {
    const out = join(dir, 'plugin.wasm');
    await promisify(execFile)(process.execPath, [
      TINY_SCRIPT,
      join(witDirectory(), 'plugin.wit'),
      out,
      mode,
    ]);
    const component = await readFile(out);
    const sha256 = artifactDigest(component);
    const manifest = {
      id,
      version: '1.0.0',
      capabilities: ['finding_enricher' as const],
      runtime: 'wasm' as const,
      wit_version: WIT_VERSION,
      min_service_version: '>=0.1',
      allowed_hosts: [],
      settings: [],
      artifact_sha256: sha256,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest));
    return {
      component,
      manifest,
      manifestBytes,
      sha256,
      signature: signManifest(manifestBytes, publisher.privateKey),
      cached: false,
      buildMs: 0,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const [good, loop] = await Promise.all([
    tinyPlugin('fair-good', 'tags'),
    tinyPlugin('fair-loop', 'loop'),
  ]);
  const started = await startRunnerProcess({ PLUGIN_RUNNER_CALL_TIMEOUT_MS: '300' });
  runner = started.runner;
  stack = await startIngestion({
    worker: true,
    env: {
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      // One job of an enricher at a time (across replicas), 4 jobs per worker process.
      PLUGIN_RUNNER_PER_PLUGIN_LIMIT: '2',
      ENRICHMENT_DEADLINE_STRIKES: '2',
      ENRICHMENT_BACKOFF_SECONDS: '2',
      ENRICHMENT_SUSPEND_AFTER_BACKOFFS: '1',
    },
  });
  product = await freshProduct(stack.t, stack.admin);
  goodId = await seedInstalledPlugin(stack.t, good, {
    publicKeyPem: publisher.publicKeyPem,
    settings: {},
  });
  loopId = await seedInstalledPlugin(stack.t, loop, {
    publicKeyPem: publisher.publicKeyPem,
    settings: {},
    enabled: false,
  });
  connection = createRedisConnection(stack.t.config.redisUrl, { name: 'fairness-test' });
  queue = new Queue(ENRICHMENT_QUEUE, { connection, prefix: stack.t.config.reports.queuePrefix });
}, 300_000);

afterAll(async () => {
  await queue?.close();
  connection?.disconnect();
  await stack?.close();
  await runner?.stop();
});

/** `count` reports at once with new findings; their ids. */
async function uploadReports(count = REPORTS): Promise<string[]> {
  const round = ++reportRound;
  return Promise.all(
    Array.from({ length: count }, async (_, r) => {
      const id = await uploadReport(
        stack.t,
        bearer(stack.admin),
        product.id,
        networkSarif(FINDINGS_PER_REPORT, (i) => `10.${round}.${r}.${i + 1}`),
      );
      expect((await waitForReport(stack.t, bearer(stack.admin), id, 120_000)).status).toBe(
        'completed',
      );
      return id;
    }),
  );
}

/** The enrichment job of `pluginId` for each report once it is finished (completed or failed). */
function finishedJobs(reportIds: string[], pluginId: string): Promise<Job[]> {
  return waitFor(
    async () => {
      const jobs = await Promise.all(
        reportIds.map((id) => queue.getJob(`report_${id}_${pluginId}_0`)),
      );
      const unfinished = jobs.filter((job) => !job?.finishedOn);
      if (unfinished.length > 0) throw new Error(`${unfinished.length} jobs not finished`);
      return jobs as Job[];
    },
    { timeoutMs: 240_000, intervalMs: 200, what: `the jobs of ${pluginId} to finish` },
  );
}

/** 95th percentile of enqueue-to-finish times. */
function p95(jobs: Job[]): number {
  const ms = jobs.map((job) => (job.finishedOn ?? 0) - job.timestamp).sort((a, b) => a - b);
  return ms[Math.min(ms.length - 1, Math.ceil(0.95 * ms.length) - 1)] ?? 0;
}

async function execution(pluginId: string) {
  const res = await request(stack.t.url)
    .get(`/api/v1/admin/installed-plugins/${pluginId}/execution`)
    .set('Authorization', `Bearer ${stack.admin.token}`)
    .expect(200);
  return (res.body as { data: Record<string, unknown> }).data;
}

describe('fairness between enrichers (real runner and worker)', () => {
  let alone: number;
  let loopJobs: Job[];

  it("a looping enricher beside a good one: the good one's p95 stays within 2× of running alone", async () => {
    // Warm-up: the runner loads and compiles the good enricher on its first job.
    await finishedJobs(await uploadReports(1), goodId);
    const aloneJobs = await finishedJobs(await uploadReports(), goodId);
    expect(await Promise.all(aloneJobs.map((job) => job.getState()))).toEqual(
      aloneJobs.map(() => 'completed'),
    );
    alone = p95(aloneJobs);

    await withDb(stack.t, (db) =>
      db.query(`UPDATE installed_plugins SET enabled = true WHERE id = $1`, [loopId]),
    );
    const reports = await uploadReports();
    const together = await finishedJobs(reports, goodId);
    // Every good job completed (a call of it may still miss the 300 ms deadline on a loaded
    // machine; its job completes with the other findings' tags).
    expect(await Promise.all(together.map((job) => job.getState()))).toEqual(
      together.map(() => 'completed'),
    );
    // The looping enricher's jobs first: the next tests read them, and a missed p95 bound (the
    // one assertion here a loaded machine can break) must not fail them as well.
    loopJobs = await finishedJobs(reports, loopId);
    expect(together.some((job) => job.returnvalue?.enriched === FINDINGS_PER_REPORT)).toBe(true);
    expect(p95(together)).toBeLessThanOrEqual(2 * Math.max(alone, P95_FLOOR_MS));
  });

  it('a deterministic failure (deadline) is not retried: one attempt, failed', async () => {
    const onDeadline = loopJobs.filter((job) =>
      job.failedReason.startsWith('enrichment_failed: deadline_exceeded'),
    );
    expect(onDeadline.length).toBeGreaterThanOrEqual(2);
    for (const job of loopJobs) {
      expect(job.attemptsMade).toBe(1);
      expect(await job.getState()).toBe('failed');
    }
    // Within a job, the runner was called for 3 findings in a row that hit the deadline, not 4:
    // the fourth was not sent (the runner's own count of calls stopped at their deadline).
    const serving = runner.jsonLines().find((l) => l['msg'] === 'plugin-runner serving');
    const metrics = await (
      await fetch(`http://127.0.0.1:${String(serving?.['metrics_port'])}/metrics`)
    ).text();
    const timeouts = metrics
      .split('\n')
      .find(
        (l) => l.startsWith('plugin_runner_timeouts_total{') && l.includes(`plugin="${loopId}"`),
      );
    expect(Number(timeouts?.split(' ').pop())).toBe(3 * onDeadline.length);
  });

  it('an enricher that keeps hitting its deadline is backed off, then suspended, with the reason shown to administrators', async () => {
    // 2 strikes → backed off 2 s → 2 more strikes → suspended (1 back-off allowed here).
    const state = await execution(loopId);
    expect(state).toMatchObject({ plugin_id: loopId, state: 'suspended', back_offs: 2 });
    expect(state['reason']).toMatch(
      /suspended after 1 back-offs: 2 enrichment jobs in a row failed on deadline_exceeded/,
    );
    // While backed off its jobs waited: the third job started after the back-off's 2 s.
    const byStart = [...loopJobs].sort((a, b) => (a.processedOn ?? 0) - (b.processedOn ?? 0));
    const deadlineJobs = byStart.filter((job) =>
      job.failedReason.startsWith('enrichment_failed: deadline_exceeded'),
    );
    const second = deadlineJobs[1] as Job;
    const third = deadlineJobs[2] as Job;
    expect(third.processedOn ?? 0).toBeGreaterThanOrEqual((second.finishedOn ?? 0) + 1_900);
    // Suspended: the rest failed at once, unattempted by the runner.
    const suspended = loopJobs.filter((job) => job.failedReason.startsWith('plugin_suspended'));
    expect(suspended.length).toBe(REPORTS - 4);
    // The good enricher is untouched.
    expect(await execution(goodId)).toMatchObject({ state: 'active', strikes: 0, reason: null });
  });

  it('a change of the installation by an administrator lifts the suspension', async () => {
    for (const action of ['disable', 'enable']) {
      await request(stack.t.url)
        .post(`/api/v1/admin/installed-plugins/${loopId}/${action}`)
        .set('Authorization', `Bearer ${stack.admin.token}`)
        .expect(200);
    }
    expect(await execution(loopId)).toMatchObject({ state: 'active', reason: null, strikes: 0 });
  });

  it('answers 404 for an installation that does not exist', async () => {
    const res = await request(stack.t.url)
      .get(
        `/api/v1/admin/installed-plugins/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/execution`,
      )
      .set('Authorization', `Bearer ${stack.admin.token}`)
      .expect(404);
    expect((res.body as { code: string }).code).toBe('installed_plugin_not_found');
  });
});

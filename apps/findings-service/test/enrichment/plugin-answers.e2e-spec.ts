import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import request, { type Response } from 'supertest';
import { buildPlugin, componentCacheDir } from '@platform/plugin-sdk/build';
import { publisherKey } from '@platform/plugin-protocol/testing';
import { createRedisConnection } from '@platform/queue';
import { waitFor, type ServiceProcess } from '@platform/testing';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import { ENRICHMENT_QUEUE } from '../../src/modules/enrichment/enrichment.job';
import { WorkerModule } from '../../src/worker/worker.module';
import {
  BUILD_TIMEOUT_MS,
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
import { ingestionEnv, workerEnv, type IngestionEnv } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

// "A plugin's answer is hostile input" (docs/plugins/enrichment.md): a test plugin built with
// the SDK build command (fixtures/hostile-enricher) answers every malformed thing, in the real
// runner, through the manual route and the background worker. Each answer gets its refusal,
// nothing stored changes, no answer is a 5xx, the plugin's secret never shows.
const publisher = publisherKey();
jest.setTimeout(180_000);

const SECRET = 'hostile-token-7f3c9a1e5d';

let runner: ServiceProcess;
let env: IngestionEnv;
let t: TestApp;
let worker: INestApplicationContext;
let workerMetrics: FindingsMetrics;
let admin: Login;
let plugin: SignedCatalogPlugin;
let pluginId: string;
let product: Product;
const statuses: number[] = [];
const logLines: string[] = [];

/** The worker's log lines (Nest's logger of the in-process worker). */
const capture: LoggerService = {
  log: (message: unknown) => logLines.push(`LOG ${String(message)}`),
  warn: (message: unknown) => logLines.push(`WARN ${String(message)}`),
  error: (message: unknown) => logLines.push(`ERROR ${String(message)}`),
  debug: () => undefined,
  verbose: () => undefined,
};

async function buildHostile(): Promise<SignedCatalogPlugin> {
  const out = await mkdtemp(join(tmpdir(), 'hostile-enricher-'));
  try {
    const built = await buildPlugin({
      sourceDir: join(__dirname, 'fixtures/hostile-enricher'),
      outDir: out,
      cacheDir: componentCacheDir(process.env),
      privateKeyPem: publisher.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    return { ...built, signature: built.signature ?? '' };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  plugin = await buildHostile();
  // The 6 MB answers take seconds to build inside the sandbox on the shared 2-core machine.
  const started = await startRunnerProcess({ PLUGIN_RUNNER_CALL_TIMEOUT_MS: '30000' });
  runner = started.runner;
  env = ingestionEnv({
    PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
    ENRICH_TAGS_RATE_LIMIT_PER_MINUTE: '1000',
  });
  t = await startTestApp(env.vars);
  workerMetrics = new FindingsMetrics();
  worker = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(loadFindingsConfig(workerEnv(t, env.vars), 'worker'), workerMetrics),
    { logger: capture, abortOnError: false },
  );
  await worker.init();
  admin = await loginAdmin(t);
  pluginId = await seedInstalledPlugin(t, plugin, {
    publicKeyPem: publisher.publicKeyPem,
    settings: { modes: { '*': 'valid' } },
    secrets: { api_token: SECRET },
  });
  product = await freshProduct(t, admin);
}, 2 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await worker?.close();
  await t?.close();
  env?.cleanup();
  await runner?.stop();
});

afterEach(() => {
  // The suite's promise: no plugin answer is ever a 5xx.
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});

function seen(res: Response): Response {
  statuses.push(res.status);
  return res;
}

async function setModes(modes: Record<string, string>, extra: Record<string, unknown> = {}) {
  await withDb(t, (db) =>
    db.query(`UPDATE installed_plugins SET settings = $2 WHERE id = $1`, [
      pluginId,
      JSON.stringify({ modes, ...extra }),
    ]),
  );
}

/** Every enrichment tag of the product's findings, by ip: the rows and the finding's union. */
async function storedTags(): Promise<Record<string, { rows: string[]; union: string[] }>> {
  return withDb(t, async (db) => {
    const res = await db.query<{ ip: string; rows: string[] | null; union: string[] }>(
      `SELECT f.ip, f.enrichment_tags AS union,
              (SELECT array_agg(key || '=' || value ORDER BY key) FROM finding_enrichment_tags e
                WHERE e.finding_id = f.id) AS rows
         FROM findings f WHERE f.product_id = $1 ORDER BY f.ip`,
      [product.id],
    );
    return Object.fromEntries(res.rows.map((r) => [r.ip, { rows: r.rows ?? [], union: r.union }]));
  });
}

async function findingIdByIp(ip: string): Promise<string> {
  return withDb(t, async (db) => {
    const res = await db.query<{ id: string }>(
      `SELECT id FROM findings WHERE product_id = $1 AND ip = $2`,
      [product.id, ip],
    );
    return res.rows[0]?.id as string;
  });
}

const manual = async (findingId: string) =>
  seen(
    await request(t.url)
      .post(`/api/v1/findings/${findingId}/enrich-tags/${pluginId}`)
      .set('Authorization', `Bearer ${admin.token}`),
  );

async function upload(ips: string[]): Promise<string> {
  const reportId = await uploadReport(
    t,
    bearer(admin),
    product.id,
    networkSarif(ips.length, (i) => ips[i] as string),
  );
  expect((await waitForReport(t, bearer(admin), reportId)).status).toBe('completed');
  return reportId;
}

async function refusalsCounted(reason: string): Promise<number> {
  const text = await (await fetch(`${t.metricsUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('findsvc_plugin_answers_refused_total{') &&
        l.includes(`plugin="${pluginId}"`) &&
        l.includes(`reason="${reason}"`),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('a plugin answer is hostile input (hostile enricher, real runner and worker)', () => {
  it('a batch is not poisoned: the valid findings get their tags beside a refused one, and the job says which failed and why', async () => {
    await setModes({ '10.40.0.2': 'nul', '*': 'valid' });
    const reportId = await upload(['10.40.0.1', '10.40.0.2', '10.40.0.3']);
    const tags = await waitFor(
      async () => {
        const current = await storedTags();
        if ((current['10.40.0.3']?.rows ?? []).length === 0)
          throw new Error(JSON.stringify(current));
        return current;
      },
      { timeoutMs: 90_000, what: 'the valid findings tagged' },
    );
    expect(tags).toEqual({
      '10.40.0.1': { rows: ['owner=team-10.40.0.1'], union: ['owner:team-10.40.0.1'] },
      '10.40.0.2': { rows: [], union: [] },
      '10.40.0.3': { rows: ['owner=team-10.40.0.3'], union: ['owner:team-10.40.0.3'] },
    });
    // Per-finding outcome: the job's return value names the refused finding and its reason.
    const jobId = `report_${reportId}_${pluginId}_0`;
    const refusedId = await findingIdByIp('10.40.0.2');
    const connection = createRedisConnection(t.config.redisUrl, {
      name: 'plugin-answers-test',
      role: 'producer',
    });
    const queue = new Queue(ENRICHMENT_QUEUE, { connection, prefix: t.config.reports.queuePrefix });
    try {
      const job = await waitFor(
        async () => {
          const found = await queue.getJob(jobId);
          if (!found?.returnvalue) throw new Error('the job has not completed');
          return found;
        },
        { timeoutMs: 30_000, what: 'the job completed' },
      );
      expect(job.returnvalue).toMatchObject({
        enriched: 2,
        failed: 1,
        failedBy: { invalid_answer: 1 },
        failures: [
          {
            findingId: refusedId,
            code: 'invalid_answer',
            message: expect.stringContaining('U+0000') as string,
          },
        ],
      });
    } finally {
      await queue.close();
      connection.disconnect();
    }
    // ... and a warning names the job, the finding and the reason.
    const line = logLines.find((l) => l.startsWith(`WARN enrichment job ${jobId}:`));
    expect(line).toContain(`${refusedId}: invalid_answer`);
    expect(line).toContain('2 enriched, 1 failed');
    // Counted in the worker's metrics.
    const metric = await workerMetrics.registry
      .getSingleMetric('findsvc_plugin_answers_refused_total')
      ?.get();
    expect(metric?.values).toContainEqual(
      expect.objectContaining({ labels: { plugin: pluginId, reason: 'invalid_answer' }, value: 1 }),
    );
  });

  it('a job whose every finding is refused fails, and each failed attempt is logged with its job id and reason', async () => {
    await setModes({ '*': 'wrong_type' });
    const reportId = await upload(['10.41.0.1']);
    const jobId = `report_${reportId}_${pluginId}_0`;
    const line = await waitFor(
      () => {
        const found = logLines.find((l) => l.includes(`enrichment job ${jobId} failed`));
        if (!found) throw new Error(logLines.join('\n'));
        return found;
      },
      { timeoutMs: 60_000, what: 'the failed job logged' },
    );
    expect(line).toMatch(/^WARN enrichment job \S+ failed \(attempt [12] of 3, retried\)/);
    expect(line).toContain('invalid_answer');
    expect((await storedTags())['10.41.0.1']).toEqual({ rows: [], union: [] });
  });

  const REFUSALS: [string, 'invalid_answer' | 'answer_too_large', string][] = [
    ['nul', 'invalid_answer', 'U+0000'],
    ['nul_key', 'invalid_answer', 'U+0000'],
    ['lone_surrogate', 'invalid_answer', 'unpaired'],
    ['huge_value', 'invalid_answer', 'at most 256'],
    ['huge_key', 'invalid_answer', 'the key must be'],
    ['many_tags', 'invalid_answer', '45000 tags, at most 50'],
    ['wrong_type', 'invalid_answer', 'not a number'],
    ['wrong_item', 'invalid_answer', 'every tag must be an object'],
    ['wrong_value', 'invalid_answer', 'a tag value must be a string'],
    ['null', 'invalid_answer', 'not null'],
    ['too_large', 'answer_too_large', ''],
  ];

  it.each(REFUSALS)(
    'a manual enrichment answered "%s" is refused (422 %s), nothing stored changes',
    async (mode, code, problem) => {
      await setModes({ '*': 'valid' });
      const id = await findingIdByIp('10.40.0.1');
      await manual(id);
      // (only this finding: a retried job of the test before may still tag its own finding)
      const before = (await storedTags())['10.40.0.1'];
      expect(before?.rows).toEqual(['owner=team-10.40.0.1']);
      const counted = await refusalsCounted(code);

      await setModes({ '*': mode });
      const res = await manual(id);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(code);
      if (problem) expect(res.body.problem).toContain(problem);
      expect((await storedTags())['10.40.0.1']).toEqual(before);
      expect(await refusalsCounted(code)).toBe(counted + 1);
    },
  );

  it('the plugin’s own secret never appears in a stored tag or an answer', async () => {
    const id = await findingIdByIp('10.40.0.3');
    await setModes({ '*': 'secret' });
    const res = await manual(id);
    expect(res.status).toBe(200);
    expect(res.body.data.tags).toEqual([
      { key: 'copy', value: '[redacted]' },
      { key: 'owner', value: 'leak-[redacted]-end' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const leaked = await withDb(t, (db) =>
      db.query(
        `SELECT 1 FROM finding_enrichment_tags WHERE value LIKE '%' || $1 || '%'
         UNION ALL SELECT 1 FROM findings WHERE array_to_string(enrichment_tags, ' ') LIKE '%' || $1 || '%'`,
        [SECRET],
      ),
    );
    expect(leaked.rowCount).toBe(0);

    // In its error text too.
    await setModes({ '*': 'secret_error' });
    const failed = await manual(id);
    expect(failed.status).toBe(422);
    expect(failed.body.code).toBe('enrichment_failed');
    expect(JSON.stringify(failed.body)).not.toContain(SECRET);
  });

  it('a configuration check answering 10 000 problems (6 MB, quoting the secret) is reported as such: a capped list and the count', async () => {
    const res = seen(
      await request(t.url)
        .put(`/api/v1/admin/installed-plugins/${pluginId}`)
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ settings: { modes: { '*': 'valid' }, problems: 10_000 } }),
    );
    expect(res.status).toBe(422);
    expect({ code: res.body.code, error: String(res.body.error).slice(0, 300) }).toMatchObject({
      code: 'plugin_config_invalid',
    }); // (the error text shows a check that failed instead)
    expect(res.body.problem).toBe('10000 problems, the first 50 listed');
    expect(res.body.error).toContain('and 9950 more');
    const fields = res.body.fields as { field: string; problems: string[] }[];
    expect(fields.map((f) => f.field).sort()).toEqual(['modes', 'settings']);
    expect(fields.reduce((n, f) => n + f.problems.length, 0)).toBe(50);
    expect(fields[0]?.problems[0]).toMatch(/^problem 0 with token \[redacted\] x+$/);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    // Nothing was stored.
    const settings = await withDb(t, (db) =>
      db.query<{ settings: unknown }>(`SELECT settings FROM installed_plugins WHERE id = $1`, [
        pluginId,
      ]),
    );
    expect(settings.rows[0]?.settings).not.toHaveProperty('problems');
  });
});

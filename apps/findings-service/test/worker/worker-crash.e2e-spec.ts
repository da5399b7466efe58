import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from '@platform/testing';
import { bearer, createProduct, createProject } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { loginAdmin, Login } from '../support/identities';
import { IngestionEnv, ingestionEnv } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { syntheticSarif } from '../support/synthetic-sarif';
import { startTestApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '../../../..');
const RESULTS = 40_000; // 20 batches of 2 000

let t: TestApp;
let admin: Login;
let env: IngestionEnv;

beforeAll(async () => {
  env = ingestionEnv({ INGEST_LOCK_MS: '2000' });
  t = await startTestApp(env.vars);
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t.close();
  env.cleanup();
});

/** The real worker entry point as a child process. */
function spawnWorker(): ChildProcess {
  return spawn(
    process.execPath,
    ['-r', '@swc-node/register', 'apps/findings-service/src/worker.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env.vars,
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        DATABASE_URL: t.config.databaseUrl,
        REDIS_URL: t.config.redisUrl,
        METRICS_PORT: '0',
        LOG_LEVEL: 'error',
        LOG_FILE_SINK_ENABLED: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

async function processedBatches(reportId: string): Promise<number> {
  return withDb(t, async (db) => {
    const res = await db.query('SELECT processed_batches FROM reports WHERE id = $1', [reportId]);
    return (res.rows[0] as { processed_batches: number }).processed_batches;
  });
}

async function snapshot(productId: string) {
  return withDb(t, async (db) => {
    const res = await db.query(
      `SELECT identity_hash, status, severity, rule_id, file_path, start_line
         FROM findings WHERE product_id = $1 ORDER BY identity_hash`,
      [productId],
    );
    return res.rows as Record<string, unknown>[];
  });
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe('Worker killed mid-report - /api/v1/products/{product_id}/reports (POST)', () => {
  it('resumes after SIGKILL and ends exactly like an uninterrupted run', async () => {
    const project = await createProject(t, bearer(admin));
    const crashed = await createProduct(t, bearer(admin), project.id);
    const clean = await createProduct(t, bearer(admin), project.id);
    const report = syntheticSarif(RESULTS);

    const first = spawnWorker();
    let crashedId: string;
    try {
      crashedId = await uploadReport(t, bearer(admin), crashed.id, report);
      await waitFor(
        async () => expect(await processedBatches(crashedId)).toBeGreaterThanOrEqual(3),
        {
          timeoutMs: 60_000,
          intervalMs: 20,
          what: 'three written batches before the kill',
        },
      );
    } finally {
      first.kill('SIGKILL');
      await stopped(first);
    }
    const atKill = await processedBatches(crashedId);
    expect(atKill).toBeGreaterThanOrEqual(3);
    expect(atKill).toBeLessThan(RESULTS / 2_000);

    const second = spawnWorker();
    try {
      const resumed = await waitForReport(t, bearer(admin), crashedId, 90_000);
      const cleanRun = await waitForReport(
        t,
        bearer(admin),
        await uploadReport(t, bearer(admin), clean.id, report),
        90_000,
      );
      expect(resumed.status).toBe('completed');
      expect(resumed.counts).toEqual({ new: RESULTS, updated: 0, renewed: 0, results: RESULTS });
      expect(resumed.counts).toEqual(cleanRun.counts);
      const [a, b] = [await snapshot(crashed.id), await snapshot(clean.id)];
      expect(a).toHaveLength(RESULTS);
      expect(a).toEqual(b);
    } finally {
      second.kill('SIGTERM');
      await stopped(second);
    }
  }, 180_000);
});

import { startServiceProcess, waitFor, type ServiceProcess } from '@platform/testing';
import { bearer } from '../support/catalog';
import { freshProduct } from '../support/findings-seed';
import { withDb } from '../support/findings-db';
import { Login } from '../support/sessions';
import { IngestionStack, startIngestion, workerEnv } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { syntheticSarif } from '../support/synthetic-sarif';
import { TestApp } from '../support/test-app';

const RESULTS = 40_000; // 20 batches of 2 000

let t: TestApp;
let admin: Login;
let stack: IngestionStack;

beforeAll(async () => {
  stack = await startIngestion({ env: { INGEST_LOCK_MS: '2000' } });
  ({ t, admin } = stack);
});
afterAll(() => stack.close());

/** The real worker entry point as a child process. */
function startWorkerProcess(): ServiceProcess {
  return startServiceProcess({
    entry: 'apps/findings-service/src/worker.ts',
    env: { ...process.env, ...workerEnv(t, stack.env.vars) },
  });
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

describe('Worker killed mid-report - /api/v1/products/{product_id}/reports (POST)', () => {
  it('resumes after SIGKILL and ends exactly like an uninterrupted run', async () => {
    const crashed = await freshProduct(t, admin);
    const clean = await freshProduct(t, admin, crashed.project_id);
    const report = syntheticSarif(RESULTS);

    const first = startWorkerProcess();
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
      await first.kill();
    }
    const atKill = await processedBatches(crashedId);
    expect(atKill).toBeGreaterThanOrEqual(3);
    expect(atKill).toBeLessThan(RESULTS / 2_000);

    const second = startWorkerProcess();
    try {
      const resumed = await waitForReport(t, bearer(admin), crashedId, 90_000);
      const cleanRun = await waitForReport(
        t,
        bearer(admin),
        await uploadReport(t, bearer(admin), clean.id, report),
        90_000,
      );
      expect(resumed.status).toBe('completed');
      expect(resumed.counts).toEqual({
        new: RESULTS,
        updated: 0,
        renewed: 0,
        results: RESULTS,
        duplicates: 0,
      });
      expect(resumed.counts).toEqual(cleanRun.counts);
      const [a, b] = [await snapshot(crashed.id), await snapshot(clean.id)];
      expect(a).toHaveLength(RESULTS);
      expect(a).toEqual(b);
      // The resumed attempt re-reads the batches the first wrote: the run's coverage is whole.
      const coverage = await withDb(t, async (db) =>
        db.query('SELECT id, coverage FROM reports WHERE id = ANY($1)', [[crashedId, cleanRun.id]]),
      );
      const [resumedCoverage, cleanCoverage] = [crashedId, cleanRun.id].map(
        (id) =>
          (coverage.rows as { id: string; coverage: unknown }[]).find((r) => r.id === id)?.coverage,
      );
      expect(resumedCoverage).toEqual([
        {
          scanner: 'SynthScanner',
          incomplete: false,
          files: [],
          failed_files: [],
          hosts: [],
          skipped: 0,
        },
      ]);
      expect(resumedCoverage).toEqual(cleanCoverage);
    } finally {
      await second.stop();
    }
  }, 180_000);
});

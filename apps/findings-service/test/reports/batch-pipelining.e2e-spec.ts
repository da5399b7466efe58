import { DataSource } from 'typeorm';
import { NormalizedFinding } from '@platform/report-parsing';
import { BatchOutcome } from '../../src/modules/findings/bulk-write/findings-bulk-write.repository';
import { syntheticResults, writeBatch } from '../support/bulk-write-batches';
import { freshProduct, type Product, seedReport } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Ingestion starts batch N + 1's transaction while batch N's runs (report-ingestion.service.ts
 * writeBatches, FindingsBulkWriteRepository.writeBatch `after`): N + 1 may only stage its rows
 * (temporary tables) until N has written, holds no lock meanwhile, and writes nothing when N
 * did not write. Both checks fail if the early batch takes its turn on its own.
 */
let t: TestApp;
let admin: Login;
let db: DataSource;
let results: NormalizedFinding[];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  db = t.app.get(DataSource);
  results = await syntheticResults(20);
}, 60_000);
afterAll(() => t?.close());

function write(
  product: Product,
  report: { id: string; created_at: Date },
  index: number,
  rows: NormalizedFinding[],
  after?: Promise<boolean>,
): Promise<BatchOutcome> {
  return writeBatch(db, product, report, index, rows, after);
}

async function findingCount(product: Product): Promise<number> {
  const rows = (await db.query(`SELECT count(*)::int AS n FROM findings WHERE product_id = $1`, [
    product.id,
  ])) as { n: number }[];
  return rows[0].n;
}

async function watermark(reportId: string): Promise<number> {
  const rows = (await db.query(`SELECT processed_batches FROM reports WHERE id = $1`, [
    reportId,
  ])) as { processed_batches: number }[];
  return rows[0].processed_batches;
}

/** Until a session of this database sits in a transaction after COPYing into the stage. */
async function stagedAndWaiting(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = (await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'idle in transaction'
          AND query LIKE 'COPY pg_temp.findings_ingest_stage%'`,
    )) as { n: number }[];
    if (rows[0].n > 0) return;
    if (Date.now() > deadline) throw new Error('the early batch never staged its rows');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Pipelined batch transactions', () => {
  it('stages the next batch early, without a lock, and writes it only after the previous batch', async () => {
    const product = await freshProduct(t, admin);
    const report = await seedReport(t, product);
    let release!: (wrote: boolean) => void;
    const previousWrote = new Promise<boolean>((resolve) => (release = resolve));
    let settled = false;
    const second = write(product, report, 1, results.slice(10, 20), previousWrote).finally(() => {
      settled = true;
    });
    await stagedAndWaiting();
    expect(settled).toBe(false);
    expect(await findingCount(product)).toBe(0);
    // Neither the product nor the report is held by the waiting batch.
    await db.transaction(async (manager) => {
      await manager.query(`SET LOCAL lock_timeout = '2s'`);
      await manager.query(`SELECT 1 FROM products WHERE id = $1 FOR UPDATE NOWAIT`, [product.id]);
      await manager.query(`SELECT 1 FROM reports WHERE id = $1 FOR UPDATE NOWAIT`, [report.id]);
    });
    // The previous batch writes meanwhile (it would wait forever on a lock the early one held).
    expect(await write(product, report, 0, results.slice(0, 10))).toEqual({
      kind: 'written',
      counts: { new: 10, updated: 0, renewed: 0 },
    });
    expect(settled).toBe(false);
    expect(await findingCount(product)).toBe(10);
    release(true);
    expect(await second).toEqual({
      kind: 'written',
      counts: { new: 10, updated: 0, renewed: 0 },
    });
    expect(await findingCount(product)).toBe(20);
    expect(await watermark(report.id)).toBe(2);
  });

  it('writes nothing after a previous batch that did not write, even at the watermark', async () => {
    const product = await freshProduct(t, admin);
    const report = await seedReport(t, product);
    expect((await write(product, report, 0, results.slice(0, 10))).kind).toBe('written');
    // Batch 1 is the report's watermark now; its predecessor is said not to have written.
    expect(await write(product, report, 1, results.slice(10, 20), Promise.resolve(false))).toEqual({
      kind: 'skipped',
    });
    expect(await findingCount(product)).toBe(10);
    expect(await watermark(report.id)).toBe(1);
    // The connection's staging table kept nothing of it: the same batch written now counts 10.
    expect(await write(product, report, 1, results.slice(10, 20))).toEqual({
      kind: 'written',
      counts: { new: 10, updated: 0, renewed: 0 },
    });
  });
});

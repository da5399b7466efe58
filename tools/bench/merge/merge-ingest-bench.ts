/**
 * Ingestion beside manual merges (not part of `npm test`; docs/findings-service/merge.md):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/merge/merge-ingest-bench.ts
 *
 * A scratch database (migrated), two products each first ingested with the same generated
 * SARIF report; in product "merged" BENCH_MERGED findings are merged into others. Then the same
 * report is written again, alternating the two products BENCH_ROUNDS times (same sitting), all
 * through FindingsBulkWriteRepository.writeBatch (the upsert path; no memo). Prints rows/s of
 * each round and the median per product, and as the in-run reference for a product without
 * merges the time of the added check alone (PRODUCT_HAS_MERGES, once per upsert) against the
 * time of its re-ingest.
 * Env: BENCH_RESULTS (default 100000), BENCH_BATCH (default INGEST_BATCH_SIZE),
 * BENCH_MERGED (default 1000), BENCH_ROUNDS (default 3), BENCH_KEEP_DB=1 keeps the database.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { FindingBatch, fileReportSource, readReport } from '@platform/report-parsing';
import { FINDINGS_MIGRATIONS } from '../../../apps/findings-service/src/database/migrations';
import { stagedBatch } from '../../../apps/findings-service/src/modules/findings/bulk-write/finding-row';
import {
  BatchTarget,
  FindingsBulkWriteRepository,
} from '../../../apps/findings-service/src/modules/findings/bulk-write/findings-bulk-write.repository';
import { PRODUCT_HAS_MERGES } from '../../../apps/findings-service/src/modules/findings/bulk-write/merged-identities';
import { INGEST_BATCH_SIZE } from '../../../apps/findings-service/src/modules/report-ingestion/report-ingestion.service';
import { writeSarif } from '../ingest/sarif-file';
import { scratchDatabase } from '../support/findings-bench-app';

const RESULTS = Number(process.env.BENCH_RESULTS ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? INGEST_BATCH_SIZE);
const MERGED = Number(process.env.BENCH_MERGED ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_merge');
  const dir = mkdtempSync(join(tmpdir(), 'merge-bench-'));
  const ds = new DataSource({ type: 'postgres', url: db.url, migrations: FINDINGS_MIGRATIONS });
  await ds.initialize();
  try {
    await ds.runMigrations();
    const file = join(dir, 'bench.sarif');
    await writeSarif(file, RESULTS);
    const batches: FindingBatch[] = [];
    for await (const b of readReport(fileReportSource(file), undefined, {}, { batchSize: BATCH })) {
      batches.push(b);
    }
    // Staged rows carry their new ids: each product gets its own COPY text.
    const stagedFor = {
      plain: batches.map((b) => stagedBatch(b.findings)),
      merged: batches.map((b) => stagedBatch(b.findings)),
    };
    const [user] = (await ds.query(
      `INSERT INTO users (email, display_name, password_hash, is_admin)
         VALUES ('bench@example.test', 'bench', 'x', true)
       RETURNING id`,
    )) as { id: string }[];
    const [project] = (await ds.query(
      `INSERT INTO projects (name) VALUES ('bench') RETURNING id`,
    )) as { id: string }[];
    const products: Record<'plain' | 'merged', string> = { plain: '', merged: '' };
    for (const name of ['plain', 'merged'] as const) {
      const [row] = (await ds.query(
        `INSERT INTO products (project_id, name) VALUES ($1, $2) RETURNING id`,
        [project.id, name],
      )) as { id: string }[];
      products[name] = row.id;
    }
    const repo = new FindingsBulkWriteRepository(ds);

    /** One whole report into `productId`; ms. */
    const ingest = async (name: 'plain' | 'merged'): Promise<number> => {
      const productId = products[name];
      const staged = stagedFor[name];
      const reportId = randomUUID();
      const [report] = (await ds.query(
        `INSERT INTO reports (id, product_id, project_id, file_name, storage_key, uploaded_by_kind,
           uploaded_by_id) VALUES ($1, $2, $3, 'bench.sarif', 'bench', 'user', $4)
         RETURNING created_at`,
        [reportId, productId, project.id, user.id],
      )) as { created_at: Date }[];
      const target: BatchTarget = {
        reportId,
        productId,
        projectId: project.id,
        seenAt: report.created_at,
        sla: { CRITICAL: 7, HIGH: 30, MEDIUM: 90, LOW: 180, INFO: null },
      };
      const t = performance.now();
      for (let i = 0; i < batches.length; i += 1) {
        const meta = {
          index: i,
          results: batches[i].findings.length,
          format: 'sarif',
          scanner: 'x',
          scannerVersion: null,
          revision: null,
        };
        const out = await repo.writeBatch(target, meta, staged[i]);
        if (out.kind !== 'written') throw new Error(`batch ${i}: ${out.kind}`);
      }
      return performance.now() - t;
    };

    for (const name of ['plain', 'merged'] as const) {
      const ms = await ingest(name);
      console.log(`first ingest ${name}: ${Math.round((RESULTS / ms) * 1000)} rows/s`);
    }
    // Pairs (even row -> next row) of the merged product: MERGED members, each with a survivor.
    await ds.query(
      `WITH ordered AS (
         SELECT id, row_number() OVER (ORDER BY id) AS n FROM findings WHERE product_id = $1),
       pairs AS (
         SELECT m.id AS member, s.id AS survivor FROM ordered m JOIN ordered s ON s.n = m.n + 1
          WHERE m.n % 2 = 1 AND m.n < $2 * 2)
       UPDATE findings f SET merged_into_id = p.survivor, merged_at = now()
         FROM pairs p WHERE f.id = p.member`,
      [products.merged, MERGED],
    );
    await ds.query(`ANALYZE findings`);
    const [{ n }] = (await ds.query(
      `SELECT count(*)::int AS n FROM findings WHERE merged_into_id IS NOT NULL`,
    )) as { n: number }[];
    console.log(`merged findings in product "merged": ${n}`);

    const times: Record<'plain' | 'merged', number[]> = { plain: [], merged: [] };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const name of round % 2 === 1
        ? (['plain', 'merged'] as const)
        : (['merged', 'plain'] as const)) {
        const ms = await ingest(name);
        times[name].push(ms);
        console.log(
          `round ${round} re-ingest ${name}: ${Math.round((RESULTS / ms) * 1000)} rows/s ` +
            `(${(ms / batches.length).toFixed(1)} ms/batch)`,
        );
      }
    }
    const [{ created }] = (await ds.query(
      `SELECT count(*)::int AS created FROM findings WHERE product_id = $1`,
      [products.merged],
    )) as { created: number }[];
    const [{ touched }] = (await ds.query(
      `SELECT count(*)::int AS touched FROM findings
        WHERE product_id = $1 AND merged_into_id IS NOT NULL AND last_seen_at > merged_at`,
      [products.merged],
    )) as { touched: number }[];
    console.log(
      `product "merged": ${created} rows after ${ROUNDS} re-ingests (first ingest made ${RESULTS}); ` +
        `merged rows written by ingestion: ${touched}`,
    );

    // The reference: what the added check costs a product without merges, in the same sitting.
    const probes = batches.length * 200;
    const t = performance.now();
    for (let i = 0; i < probes; i += 1) await ds.query(PRODUCT_HAS_MERGES, [products.plain]);
    const probeMs = (performance.now() - t) / probes;
    const plain = median(times.plain);
    const merged = median(times.merged);
    console.log(
      `median re-ingest: plain ${Math.round((RESULTS / plain) * 1000)} rows/s, ` +
        `merged ${Math.round((RESULTS / merged) * 1000)} rows/s ` +
        `(${((merged / plain) * 100).toFixed(1)} % of plain's time)`,
    );
    console.log(
      `reference: the merge check alone ${probeMs.toFixed(3)} ms per upsert x ${batches.length} = ` +
        `${(probeMs * batches.length).toFixed(1)} ms of plain's ${plain.toFixed(0)} ms ` +
        `(${(((probeMs * batches.length) / plain) * 100).toFixed(2)} %)`,
    );
  } finally {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

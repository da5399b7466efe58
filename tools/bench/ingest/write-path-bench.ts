/**
 * Write-path micro benchmark (not part of `npm test`): the database side of ingestion without
 * HTTP, BullMQ or parsing overlap, to see where a batch's time goes. Run after ingest-bench.ts
 * (it reuses that run's database `bench_ingest` for a project and an uploader):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/ingest/write-path-bench.ts
 *
 * Parses a generated 100 000-result SARIF into memory (timed), builds the COPY text of every
 * batch (timed), then writes all batches through FindingsBulkWriteRepository.writeBatch into a
 * fresh product (first ingest) and again with a second report (duplicates); prints rows/s of
 * each and the HOT share of the duplicate updates.
 * Env: BENCH_RESULTS (default 100000), BENCH_BATCH (default INGEST_BATCH_SIZE),
 * BENCH_UPSERT_ONLY=1 (the first ingest upserts like a re-ingest instead of the plain insert),
 * BENCH_SERIAL=1 (each batch starts after the previous one committed; by default batch N + 1
 * stages its rows while N writes, as the worker does). Each line also gives the CPU seconds of
 * the database's backends (every `postgres` process serving `bench_ingest`).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { stagedBatch } from '../../../apps/findings-service/src/modules/findings/bulk-write/finding-row';
import {
  BatchTarget,
  FindingsBulkWriteRepository,
} from '../../../apps/findings-service/src/modules/findings/bulk-write/findings-bulk-write.repository';
import { INGEST_BATCH_SIZE } from '../../../apps/findings-service/src/modules/report-ingestion/report-ingestion.service';
import { FindingBatch, fileReportSource, readReport } from '@platform/report-parsing';
import { stackEnv } from '../support/stack-db';
import { writeSarif } from './sarif-file';

const RESULTS = Number(process.env.BENCH_RESULTS ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? INGEST_BATCH_SIZE);

/** CPU seconds (user + system) of the `postgres` processes serving database `bench_ingest`. */
function backendCpuSeconds(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      if (!/ bench_ingest(?![\w])/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks / 100;
}

function databaseUrl(): string {
  const url = new URL(stackEnv()['STACK_PG_URL'] ?? '');
  url.pathname = '/bench_ingest';
  return url.toString();
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'write-path-bench-'));
  const ds = new DataSource({ type: 'postgres', url: databaseUrl() });
  await ds.initialize();
  try {
    const file = join(dir, 'bench.sarif');
    await writeSarif(file, RESULTS);
    let t = performance.now();
    const batches: FindingBatch[] = [];
    for await (const b of readReport(fileReportSource(file), undefined, {}, { batchSize: BATCH })) {
      batches.push(b);
    }
    const parseMs = performance.now() - t;
    t = performance.now();
    const staged = batches.map((b) => stagedBatch(b.findings));
    const stageMs = performance.now() - t;
    console.log(
      `parse ${Math.round((RESULTS / parseMs) * 1000)}/s; COPY text ` +
        `${Math.round((RESULTS / stageMs) * 1000)}/s (${batches.length} batches of ${BATCH})`,
    );

    const [project] = (await ds.query(
      `SELECT p.id, r.uploaded_by_id FROM projects p JOIN reports r ON r.project_id = p.id LIMIT 1`,
    )) as { id: string; uploaded_by_id: string }[];
    const [product] = (await ds.query(
      `INSERT INTO products (project_id, name) VALUES ($1, $2) RETURNING id`,
      [project.id, `write-path-${Date.now()}`],
    )) as { id: string }[];
    const repo = new FindingsBulkWriteRepository(ds);
    for (const label of ['first ingest', 'duplicates']) {
      const reportId = randomUUID();
      const [report] = (await ds.query(
        `INSERT INTO reports (id, product_id, project_id, file_name, storage_key, uploaded_by_kind,
           uploaded_by_id) VALUES ($1, $2, $3, 'bench.sarif', 'bench', 'user', $4)
         RETURNING created_at`,
        [reportId, product.id, project.id, project.uploaded_by_id],
      )) as { created_at: Date }[];
      const target: BatchTarget = {
        reportId,
        productId: product.id,
        projectId: project.id,
        seenAt: report.created_at,
        sla: { CRITICAL: 7, HIGH: 30, MEDIUM: 90, LOW: 180, INFO: null },
        // As the worker does: a product without findings gets the plain insert
        // (BENCH_UPSERT_ONLY=1: the upsert for every batch, the path before issue 34).
        ...(process.env.BENCH_UPSERT_ONLY !== '1' && (await repo.productIsEmpty(product.id))
          ? { firstIngest: { insertOnly: true } }
          : {}),
      };
      const [before] = (await ds.query(
        `SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables
          WHERE relname = 'findings'`,
      )) as { upd: number; hot: number }[];
      t = performance.now();
      const cpu = backendCpuSeconds();
      let previous: Promise<boolean> | undefined;
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < batches.length; i += 1) {
        const b = batches[i];
        const meta = {
          index: i,
          results: b.findings.length,
          format: 'sarif',
          scanner: 'x',
          scannerVersion: null,
          revision: null,
        };
        const write = repo.writeBatch(target, meta, staged[i], undefined, previous).then((out) => {
          if (out.kind !== 'written') throw new Error(`batch ${i}: ${out.kind}`);
          return true;
        });
        writes.push(write);
        if (process.env.BENCH_SERIAL === '1') await write;
        else if (writes.length > 1) await writes[writes.length - 2];
        previous = write;
      }
      await Promise.all(writes);
      const ms = performance.now() - t;
      const cpuUsed = backendCpuSeconds() - cpu;
      await new Promise((r) => setTimeout(r, 1_500)); // backends flush statistics at most once a second
      const [after] = (await ds.query(
        `SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables
          WHERE relname = 'findings'`,
      )) as { upd: number; hot: number }[];
      const upd = after.upd - before.upd;
      console.log(
        `${label}: ${Math.round((RESULTS / ms) * 1000)} rows/s (${(ms / batches.length).toFixed(1)} ms/batch); ` +
          `updates ${upd}, HOT ${upd ? Math.round(((after.hot - before.hot) / upd) * 100) : 0} %; ` +
          `backends ${cpuUsed.toFixed(2)} CPU s (${process.env.BENCH_SERIAL === '1' ? 'serial' : 'pipelined'})`,
      );
    }
  } finally {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

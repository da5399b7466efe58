/**
 * Where a first-ingest batch's database time goes (not part of `npm test`). Run after
 * ingest-bench.ts (reuses its database `bench_ingest` for a project):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/ingest/write-path-profile.ts
 *
 * Parses a generated SARIF (BENCH_RESULTS, default 20 000) into batches, then, each in a
 * transaction that is rolled back (the table is left as it was):
 * 1. EXPLAIN (ANALYZE, BUFFERS, WAL) of the upsert of one staged batch into a fresh product;
 * 2. the write path of every batch (COPY + upsert per batch, as writeBatch does), with all
 *    indexes of `findings` and `finding_actions`, without the `created` action-log entries, then
 *    with each non-unique index dropped in the transaction (its marginal cost), BENCH_ROUNDS
 *    (default 4) rounds, every other one in reverse order;
 * 3. the same COPY alone into the staging table (the floor of the staging step).
 * Prints the backend's CPU ms per 1 000 rows of each variant (median of the rounds; the wall
 * time beside it): CPU time, read from /proc for the local backend, is what a shared machine
 * leaves comparable.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { stagedBatch } from '../../../apps/findings-service/src/modules/findings/bulk-write/finding-row';
import {
  PREPARE_STAGE,
  STAGE,
  STAGED,
  UPSERT,
} from '../../../apps/findings-service/src/modules/findings/bulk-write/findings-bulk-write.sql';
import { INGEST_BATCH_SIZE } from '../../../apps/findings-service/src/modules/report-ingestion/report-ingestion.service';
import { FindingBatch, fileReportSource, readReport } from '@platform/report-parsing';
import { stackEnv } from '../support/stack-db';
import { writeSarif } from './sarif-file';

const RESULTS = Number(process.env.BENCH_RESULTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

function databaseUrl(): string {
  const url = new URL(stackEnv()['STACK_PG_URL'] ?? '');
  url.pathname = '/bench_ingest';
  return url.toString();
}

async function copyInto(client: Client, data: Buffer): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${STAGE} (${STAGED}) FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(data);
  });
}

/** CPU seconds (user + system) of the local backend `pid` (the stack's PostgreSQL runs here). */
function backendCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'write-path-profile-'));
  const client = new Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const file = join(dir, 'bench.sarif');
    await writeSarif(file, RESULTS, { seed: 11 });
    const batches: FindingBatch[] = [];
    for await (const b of readReport(
      fileReportSource(file),
      undefined,
      {},
      {
        batchSize: INGEST_BATCH_SIZE,
      },
    )) {
      batches.push(b);
    }
    const staged = batches.map((b) => stagedBatch(b.findings).data);
    const [project] = (
      await client.query<{ id: string }>(`SELECT id FROM projects ORDER BY created_at LIMIT 1`)
    ).rows;
    const params = (productId: string) => [
      productId,
      project.id,
      new Date(),
      null,
      new Date().toISOString(),
      7,
      30,
      90,
      180,
      null,
    ];
    const freshProduct = async (): Promise<string> =>
      (
        await client.query<{ id: string }>(
          `INSERT INTO products (project_id, name) VALUES ($1, $2) RETURNING id`,
          [project.id, `profile-${Date.now()}-${Math.random()}`],
        )
      ).rows[0].id;

    // 1. the plan of one batch
    await client.query('BEGIN');
    await client.query(PREPARE_STAGE);
    await copyInto(client, staged[0]);
    const plan = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, WAL, TIMING) ${UPSERT}`,
      params(await freshProduct()),
    );
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    await client.query('ROLLBACK');

    const indexes = (
      await client.query<{ name: string; table: string }>(
        `SELECT i.relname AS name, t.relname AS table FROM pg_index x
           JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
          WHERE t.relname IN ('findings', 'finding_actions') AND NOT x.indisunique
          ORDER BY t.relname, i.relname`,
      )
    ).rows;
    const withoutCreatedLog = UPSERT.replace(
      /,\s*created_log AS \([\s\S]*?WHERE inserted\s*\)/,
      '',
    );
    if (withoutCreatedLog === UPSERT) throw new Error('created_log CTE not found in UPSERT');
    const plainInsert = UPSERT.replace(/ON CONFLICT[\s\S]*?updated_at = now\(\)\s*/, '').replace(
      `FROM ${STAGE}`,
      `FROM ${STAGE} WHERE $5::text IS NOT NULL`,
    );
    const variants = [
      'all indexes',
      'no created entries',
      'plain INSERT (no ON CONFLICT)',
      'prepared (named statement)',
      ...(process.env.BENCH_INDEXES === '0'
        ? []
        : indexes.map((i) => `without ${i.table}.${i.name}`)),
    ];
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const cpu = new Map<string, number[]>(variants.map((v) => [v, []]));
    const wall = new Map<string, number[]>(variants.map((v) => [v, []]));
    const copyCpu: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const variant of round % 2 ? [...variants].reverse() : variants) {
        await client.query('BEGIN');
        const dropped = variant.startsWith('without ') ? variant.split('.')[1] : undefined;
        if (dropped) await client.query(`DROP INDEX "${dropped}"`);
        const sql =
          variant === 'no created entries'
            ? withoutCreatedLog
            : variant.startsWith('plain')
              ? plainInsert
              : UPSERT;
        const name = variant.startsWith('prepared') ? 'profile_upsert' : undefined;
        const productId = await freshProduct();
        const cpuBefore = backendCpuMs(pid);
        const started = performance.now();
        for (const data of staged) {
          await client.query(PREPARE_STAGE);
          await copyInto(client, data);
          await client.query({ name, text: sql, values: params(productId) });
          await client.query(`TRUNCATE ${STAGE}`);
        }
        wall.get(variant)?.push(performance.now() - started);
        cpu.get(variant)?.push(backendCpuMs(pid) - cpuBefore);
        await client.query('ROLLBACK');
      }
      await client.query('BEGIN');
      await client.query(PREPARE_STAGE);
      const cpuBefore = backendCpuMs(pid);
      for (const data of staged) {
        await copyInto(client, data);
        await client.query(`TRUNCATE ${STAGE}`);
      }
      copyCpu.push(backendCpuMs(pid) - cpuBefore);
      await client.query('ROLLBACK');
    }
    const perK = (ms: number) => ((ms / RESULTS) * 1000).toFixed(2);
    const base = median(cpu.get('all indexes') ?? []);
    console.log(
      `\n${RESULTS} rows in ${staged.length} batches, ${ROUNDS} rounds (median), ` +
        `backend CPU ms per 1 000 rows (wall in brackets):`,
    );
    console.log(`COPY into the staging table alone: ${perK(median(copyCpu))}`);
    for (const variant of variants) {
      const ms = median(cpu.get(variant) ?? []);
      const saved = variant === 'all indexes' ? '' : `, saves ${perK(base - ms)}`;
      console.log(`${variant}: ${perK(ms)} [${perK(median(wall.get(variant) ?? []))}]${saved}`);
    }
  } finally {
    await client.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

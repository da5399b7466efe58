/**
 * Ingestion with 50 enabled suppression rules vs none (issue 28; not part of `npm test`). One
 * command from the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/suppression/ingest-rules-bench.ts
 *
 * Boots the real API in-process on a scratch database (migrations), creates two projects — one
 * without rules, one with 50 rules created through POST /suppression-rules (globs, alternatives,
 * negations, tags, CWE; 5 of them suppress ~10 % of the report) — parses the generated
 * 100 000-result SARIF of tools/bench/ingest once, then writes it as a first ingest into a fresh
 * product of each project, alternating, BENCH_ROUNDS times (default 3), through the ingestion
 * write path (FindingsBulkWriteRepository.writeBatch, batches of INGEST_BATCH_SIZE; the rules
 * read once per report by SuppressionMatcher, as the worker does). Rules only change the
 * database side; parsing and the queue are untouched, so the ratio here is a lower bound of the
 * end-to-end ratio. Prints rows/s of each run, the medians and with / without (target ≥ 0.90).
 * Env: BENCH_RESULTS (100000), BENCH_ROUNDS (3), BENCH_KEEP_DB=1, BENCH_FIRST_INGEST (1: the
 * batches as a first report's, plain inserts, as the worker writes them; 0: upserts), BENCH_RULES (`all`: the 50;
 * `matching`: only the 5 that suppress — what the rules' statement costs apart from the
 * evaluation of the 45 that miss).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { FindingBatch, fileReportSource, readReport } from '@platform/report-parsing';
import {
  stagedBatch,
  type StagedBatch,
} from '../../../apps/findings-service/src/modules/findings/bulk-write/finding-row';
import {
  BatchTarget,
  FindingsBulkWriteRepository,
} from '../../../apps/findings-service/src/modules/findings/bulk-write/findings-bulk-write.repository';
import { INGEST_BATCH_SIZE } from '../../../apps/findings-service/src/modules/report-ingestion/report-ingestion.service';
import { SuppressionMatcher } from '../../../apps/findings-service/src/modules/suppression/suppression-matcher';
import { writeSarif } from '../ingest/sarif-file';
import { ownCpuSeconds, treeCpuSeconds } from '../support/process-cpu';
import { fmt, median, post, startBenchApi, type BenchApi } from './bench-app';
import { benchRules } from './bench-rules';

const RESULTS = Number(process.env['BENCH_RESULTS'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const FIRST_INGEST = process.env['BENCH_FIRST_INGEST'] !== '0';

async function ingest(
  ds: DataSource,
  repo: FindingsBulkWriteRepository,
  matcher: SuppressionMatcher,
  projectId: string,
  uploader: string,
  batches: FindingBatch[],
): Promise<{ rate: number; suppressed: number; cpu: number }> {
  // Staged afresh for each ingest (each row carries a new finding id), outside the timing.
  const staged: StagedBatch[] = batches.map((b) => stagedBatch(b.findings));
  const [product] = (await ds.query(
    `INSERT INTO products (project_id, name) VALUES ($1, $2) RETURNING id`,
    [projectId, `p-${randomUUID()}`],
  )) as { id: string }[];
  const reportId = randomUUID();
  const [report] = (await ds.query(
    `INSERT INTO reports (id, product_id, project_id, file_name, storage_key, uploaded_by_kind,
       uploaded_by_id) VALUES ($1, $2, $3, 'bench.sarif', 'bench', 'user', $4) RETURNING created_at`,
    [reportId, product.id, projectId, uploader],
  )) as { created_at: Date }[];
  const cpuBefore = await benchCpuSeconds(ds);
  const started = performance.now();
  const target: BatchTarget = {
    reportId,
    productId: product.id,
    projectId,
    seenAt: report.created_at,
    sla: { CRITICAL: 7, HIGH: 30, MEDIUM: 90, LOW: 180, INFO: null },
    suppression: await matcher.forIngestion(projectId),
    // As the worker does for a product's first report (productIsEmpty): plain inserts, with the
    // rules' variant of them; BENCH_FIRST_INGEST=0 upserts every batch (the sittings before
    // the rules had an insert variant).
    ...(FIRST_INGEST ? { firstIngest: { insertOnly: true } } : {}),
  };
  for (let i = 0; i < staged.length; i++) {
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
  const ms = performance.now() - started;
  const cpu = (await benchCpuSeconds(ds)) - cpuBefore;
  const [row] = (await ds.query(
    `SELECT count(*) FILTER (WHERE suppression_rule_id IS NOT NULL)::int AS n FROM findings
      WHERE product_id = $1`,
    [product.id],
  )) as { n: number }[];
  return { rate: (RESULTS / ms) * 1000, suppressed: row.n, cpu };
}

/**
 * CPU seconds used so far by this process and by the scratch database's client backends (all
 * of them this bench's pool: nobody else connects to it), from /proc: the cost of an ingest
 * apart from what the other work on this shared machine takes from its wall time.
 */
async function benchCpuSeconds(ds: DataSource): Promise<number> {
  const rows = (await ds.query(
    `SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND backend_type = 'client backend'`,
  )) as { pid: number }[];
  let total = ownCpuSeconds();
  for (const { pid } of rows) total += treeCpuSeconds(pid);
  return total;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'suppression-ingest-bench-'));
  const api: BenchApi = await startBenchApi('bench_suppression_ingest');
  try {
    const ds = api.app.get(DataSource);
    const plain = String((await post(api, '/api/v1/projects', { name: 'no rules' }))['id']);
    const ruled = String((await post(api, '/api/v1/projects', { name: '50 rules' }))['id']);
    const texts = benchRules();
    for (const [i, query] of texts.entries()) {
      await post(api, `/api/v1/projects/${ruled}/suppression-rules`, { name: `rule ${i}`, query });
    }
    const [{ id: uploader }] = (await ds.query(`SELECT id FROM users LIMIT 1`)) as { id: string }[];

    const file = join(dir, 'bench.sarif');
    await writeSarif(file, RESULTS);
    const batches: FindingBatch[] = [];
    for await (const b of readReport(
      fileReportSource(file),
      undefined,
      {},
      { batchSize: INGEST_BATCH_SIZE },
    )) {
      batches.push(b);
    }
    const repo = new FindingsBulkWriteRepository(ds);
    const matcher = api.app.get(SuppressionMatcher, { strict: false });
    console.log(`${fmt(RESULTS)} results in ${batches.length} batches; ${texts.length} rules`);

    const without: number[] = [];
    const withRules: number[] = [];
    const cpuWithout: number[] = [];
    const cpuWith: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await ingest(ds, repo, matcher, plain, uploader, batches);
      const b = await ingest(ds, repo, matcher, ruled, uploader, batches);
      without.push(a.rate);
      withRules.push(b.rate);
      cpuWithout.push(a.cpu);
      cpuWith.push(b.cpu);
      console.log(
        `round ${round + 1}: without rules ${fmt(a.rate)} rows/s; with ${texts.length} rules ${fmt(b.rate)} rows/s ` +
          `(${fmt(b.suppressed)} suppressed; ${(b.rate / a.rate).toFixed(3)}); ` +
          `CPU (PostgreSQL backends + bench) ${a.cpu.toFixed(2)} s / ${b.cpu.toFixed(2)} s (${(a.cpu / b.cpu).toFixed(3)})`,
      );
      await ds.query('VACUUM ANALYZE findings');
    }
    const m1 = median(without);
    const m2 = median(withRules);
    console.log(`reference (no rules, same sitting): median ${fmt(m1)} rows/s`);
    console.log(`with ${texts.length} rules: median ${fmt(m2)} rows/s`);
    console.log(`ratio with / without: ${(m2 / m1).toFixed(3)} (target >= 0.90)`);
    const c1 = median(cpuWithout);
    const c2 = median(cpuWith);
    console.log(
      `CPU per ingest (PostgreSQL backends + bench), medians: without ${c1.toFixed(2)} s, with ` +
        `${c2.toFixed(2)} s; throughput per CPU second with / without: ${(c1 / c2).toFixed(3)}`,
    );
  } finally {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

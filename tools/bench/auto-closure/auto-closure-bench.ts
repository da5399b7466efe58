/**
 * Automatic closure benchmark (not part of `npm test`). From the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/auto-closure/auto-closure-bench.ts
 *
 * Starts the project's PostgreSQL/Redis when STACK_PG_URL is not set, creates a scratch database
 * with the findings migrations, loads BENCH_FINDINGS findings (default 1 000 000) into one product
 * with set-based INSERT ... SELECT generate_series, and marks BENCH_SEEN of them (default 100 000)
 * as seen by a just-completed report — what the ingestion of a 100 000-result report leaves
 * behind. Then it times the closure check of that report (docs/findings-service/auto-closure.md)
 * as the worker runs it — candidate selection, AUTO_CLOSE_ATTEMPTS attempts (no wait between
 * them), and the final step that turns verdicts into counters — beside an in-run reference: one
 * indexed scan of the product's findings (`count(*) ... WHERE product_id = $1`, the product's
 * index, every row of the product read once).
 *
 * Two shapes of the same size:
 *   - mixed: five scanners share the product; the report's scanner owns a fifth of it, the
 *     report lists all that scanner's files as scanned, so a tenth of its findings are absent;
 *   - mass: every finding is the report's scanner's and the report lists every file: 900 000
 *     findings missing at once (the worst case; the hourly cap then holds the closures).
 *
 * Target (issue 23): the check after a 100 000-result report over a 1 M-finding product <= 10 s.
 * Env: BENCH_FINDINGS, BENCH_SEEN, BENCH_KEEP_DB=1.
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runMigrationsUnderLock } from '@platform/database';
import { DataSource } from 'typeorm';
import {
  findingsDataSourceOptions,
  MIGRATION_LOCK_KEY,
} from '../../../apps/findings-service/src/database/data-source';
import {
  ClosureCheckRepository,
  type CheckedReport,
} from '../../../apps/findings-service/src/modules/auto-closure/closure-check.repository';
import { scratchDatabase } from '../support/findings-bench-app';

const TOTAL = Number(process.env['BENCH_FINDINGS'] ?? 1_000_000);
const SEEN = Number(process.env['BENCH_SEEN'] ?? 100_000);
const ATTEMPTS = 3;
const FILES = 20_000;
const SCANNERS = ['semgrep', 'trivy', 'zap', 'sonarqube', 'gitleaks'];

/** $3 findings; `mixed`: scanner by g % 5, else all semgrep; 5 in 6 in an attention state. */
const LOAD = `
INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
  description, severity, status, file_path, scanner, first_seen_at, last_seen_at, created_at)
SELECT $1, $2, md5($4 || g::text) || md5(g::text || $4), 'code', 'rule-' || (g % 400),
  'Finding ' || g, 'Seeded description of finding ' || g, 'MEDIUM',
  (ARRAY['new','confirmed','in_progress','renewed','needs_review','false_positive'])[1 + (g * 104729) % 6],
  'src/file-' || (g % ${FILES}) || '.ts',
  CASE WHEN $5 THEN ($6::text[])[1 + g % 5] ELSE 'semgrep' END,
  now() - interval '30 days', now() - interval '7 days', now() - interval '30 days'
FROM generate_series(1::bigint, $3::bigint) AS g`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, (performance.now() - start) / 1000];
}

async function shape(ds: DataSource, name: 'mixed' | 'mass'): Promise<void> {
  const [project] = (await ds.query(
    `INSERT INTO projects (name, auto_verify_fixes) VALUES ($1, true) RETURNING id`,
    [`bench-${name}-${Date.now()}`],
  )) as { id: string }[];
  const [product] = (await ds.query(
    `INSERT INTO products (project_id, name) VALUES ($1, $2) RETURNING id`,
    [project.id, `bench-${name}`],
  )) as { id: string }[];
  const [user] = (await ds.query(
    `INSERT INTO users (email, display_name, is_admin) VALUES ($1, 'bench', true) RETURNING id`,
    [`bench-${name}-${Date.now()}@example.test`],
  )) as { id: string }[];
  const [load] = await timed(() =>
    ds.query(LOAD, [product.id, project.id, TOTAL, name, name === 'mixed', SCANNERS]),
  );
  void load;
  const mine = name === 'mixed' ? `scanner = 'semgrep'` : 'TRUE';
  const [report] = (await ds.query(
    `INSERT INTO reports (id, product_id, project_id, status, verify_fixes, file_name, storage_key,
       uploaded_by_kind, uploaded_by_id, scanner, coverage, created_at)
     SELECT gen_random_uuid(), $1, $2, 'completed', true, 'r.sarif', 'r', 'user', $3, 'semgrep',
            jsonb_build_array(jsonb_build_object('scanner', 'semgrep', 'incomplete', false,
              'skipped', 0, 'failed_files', '[]'::jsonb, 'hosts', '[]'::jsonb,
              'files', (SELECT jsonb_agg(DISTINCT file_path) FROM findings
                         WHERE product_id = $1 AND ${mine}))),
            now()
     RETURNING id, created_at`,
    [product.id, project.id, user.id],
  )) as { id: string; created_at: Date }[];
  // What ingesting a SEEN-result report leaves: those findings last seen by it.
  await ds.query(
    `UPDATE findings SET last_report_id = $2, last_seen_at = $3
      WHERE id IN (SELECT id FROM findings WHERE product_id = $1 AND ${mine}
                    ORDER BY md5(id::text) LIMIT $4)`,
    [product.id, report.id, report.created_at, SEEN],
  );
  await ds.query(`VACUUM ANALYZE findings`);
  const [[ref], refSeconds] = await timed(
    () =>
      ds.query(
        `SELECT count(*)::int AS n FROM findings WHERE product_id = $1 AND last_seen_at < $2`,
        [product.id, report.created_at],
      ) as Promise<{ n: number }[]>,
  );
  const checks = new ClosureCheckRepository(ds);
  const checked: CheckedReport = {
    reportId: report.id,
    productId: product.id,
    projectId: project.id,
    status: 'completed',
    verifyFixes: true,
    projectAutoVerify: true,
    createdAt: report.created_at,
  };
  const now = new Date();
  const [, startSeconds] = await timed(() => checks.start(checked, now));
  let attemptSeconds = 0;
  const [check] = (await ds.query(
    `SELECT started_at, candidates FROM auto_closure_checks WHERE report_id = $1`,
    [report.id],
  )) as { started_at: Date; candidates: number }[];
  for (let i = 0; i < ATTEMPTS; i++) {
    const [, seconds] = await timed(() => checks.attempt(checked, check.started_at));
    attemptSeconds += seconds;
  }
  const [final, finishSeconds] = await timed(() => checks.finish(checked, 3, now));
  const total = startSeconds + attemptSeconds + finishSeconds;
  const load1 = loadavg()[0].toFixed(1);
  console.log(
    `${name}: ${TOTAL} findings, ${SEEN} seen by the report, ${check.candidates} candidates, ${final?.absent ?? 0} absent`,
  );
  console.log(
    `  check ${total.toFixed(2)} s = select ${startSeconds.toFixed(2)} + ${ATTEMPTS} attempts ${attemptSeconds.toFixed(2)} + counters ${finishSeconds.toFixed(2)}` +
      ` | reference indexed scan of the product ${refSeconds.toFixed(2)} s (${ref.n} rows) | ratio ${(total / refSeconds).toFixed(1)} | load ${load1}`,
  );
}

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_autoclose');
  const ds = new DataSource(findingsDataSourceOptions(db.url, 'bench-auto-closure'));
  try {
    await ds.initialize();
    await runMigrationsUnderLock(ds, {
      lockKey: MIGRATION_LOCK_KEY,
      waitSeconds: 60,
      logger: { log: () => undefined, warn: () => undefined },
    });
    await shape(ds, 'mixed');
    await shape(ds, 'mass');
  } finally {
    await ds.destroy().catch(() => undefined);
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

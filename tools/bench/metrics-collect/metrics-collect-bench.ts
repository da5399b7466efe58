/**
 * Business metrics collection benchmark (not part of `npm test`). From the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/metrics-collect/metrics-collect-bench.ts
 *
 * Starts the project's PostgreSQL/Redis (tools/stack/stack.sh) when STACK_PG_URL is not set,
 * creates a scratch database, boots the real API (migrations included; the collection timer
 * set to a day so only the bench's calls run), loads BENCH_FINDINGS findings (default
 * 1 000 000, set-based INSERT ... SELECT generate_series in chunks) and BENCH_VIOLATIONS open
 * violations (default 20 000), then times, sequentially, BENCH_ROUNDS times each (default 20):
 *   - reference: `SELECT count(*) FROM findings` on the same pool, in the same run
 *   - the findings GROUP BY severity, status query alone
 *   - one full collection (every kind: findings, open violations, both queues' job counts,
 *     pool counters), as the API's timer runs it
 * once right after the load (ANALYZE only: the visibility map is not set yet, so an index-only
 * scan still visits the heap) and once after VACUUM (what autovacuum leaves), and prints
 * p50/p95 per line with the plan of the GROUP BY. BENCH_KEEP_DB=1 keeps the database.
 */
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import { BusinessMetricsCollector } from '../../../apps/findings-service/src/api/metrics/business-metrics.collector';
import { BusinessMetricsRepository } from '../../../apps/findings-service/src/api/metrics/business-metrics.repository';
import { findingsBenchVars, scratchDatabase } from '../support/findings-bench-app';

const TOTAL = Number(process.env['BENCH_FINDINGS'] ?? 1_000_000);
const VIOLATIONS = Number(process.env['BENCH_VIOLATIONS'] ?? 20_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 20);
const CHUNK = 100_000;

const LOAD = `
INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
  description, severity, status, scanner, first_seen_at, last_seen_at)
SELECT $1, $2, md5('f' || g::text) || md5(g::text || 'f'), 'code', 'rule-' || (g % 400),
  'Finding ' || g, 'Seeded finding ' || g,
  (ARRAY['CRITICAL','HIGH','MEDIUM','MEDIUM','LOW','LOW','INFO'])[1 + (g * 7919) % 7],
  (ARRAY['new','new','confirmed','in_progress','in_progress','waiting','risk_accepted',
         'needs_review','fixed','fixed','false_positive','wont_fix','renewed'])[1 + (g * 104729) % 13],
  'semgrep', now(), now()
FROM generate_series($3::bigint, $4::bigint) AS g`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(label: string, work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  console.log(
    `| ${label.padEnd(62)} | ${p50.toFixed(1).padStart(7)} | ${percentile(times, 95).toFixed(1).padStart(7)} |`,
  );
  return p50;
}

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_metrics');
  const config = loadFindingsConfig(
    findingsBenchVars(db, { METRICS_COLLECT_INTERVAL_SECONDS: '86400' }),
    'api',
  );
  const app = await createFindingsApp(config);
  try {
    await app.init();
    const db = app.get(DataSource);
    const [project] = (await db.query(
      `INSERT INTO projects (name) VALUES ('bench') RETURNING id`,
    )) as { id: string }[];
    const [product] = (await db.query(
      `INSERT INTO products (project_id, name) VALUES ($1, 'bench') RETURNING id`,
      [project.id],
    )) as { id: string }[];
    const loadStarted = performance.now();
    for (let from = 1; from <= TOTAL; from += CHUNK) {
      await db.query(LOAD, [product.id, project.id, from, Math.min(TOTAL, from + CHUNK - 1)]);
    }
    await db.query(
      `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at,
         opened_at)
       SELECT id, project_id, product_id, severity, 'breached', now(), now()
         FROM findings ORDER BY id LIMIT $1`,
      [VIOLATIONS],
    );
    await db.query('ANALYZE findings');
    await db.query('ANALYZE sla_violations');
    console.log(
      `loaded ${TOTAL} findings and ${VIOLATIONS} open violations in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );
    console.log(
      `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (shared with other engineers' work)`,
    );
    const repository = app.get(BusinessMetricsRepository);
    const collector = app.get(BusinessMetricsCollector).collector;
    const plan = async () =>
      (
        (await db.query(
          `EXPLAIN SELECT severity, status, count(*)::bigint AS count FROM findings GROUP BY severity, status`,
        )) as { 'QUERY PLAN': string }[]
      )
        .map((r) => r['QUERY PLAN'].trim())
        .filter((l) => /Scan|Aggregate/.test(l))
        .join(' / ');
    for (const phase of ['right after the load (ANALYZE only)', 'after VACUUM']) {
      if (phase === 'after VACUUM') await db.query('VACUUM ANALYZE findings');
      console.log(`\n${phase}; GROUP BY plan: ${await plan()}\n`);
      console.log(`| ${'what'.padEnd(62)} | p50 ms  | p95 ms  |`);
      console.log(`| ${'-'.repeat(62)} | ------- | ------- |`);
      const reference = await time('reference: SELECT count(*) FROM findings', () =>
        db.query('SELECT count(*) FROM findings'),
      );
      const grouped = await time('findings GROUP BY severity, status', () =>
        repository.findingsBySeverityAndStatus(),
      );
      const full = await time('full collection (4 kinds, 2 queues)', async () => {
        if (!(await collector.collect())) throw new Error('a collection failed');
      });
      console.log(
        `GROUP BY / reference = ${(grouped / reference).toFixed(2)}; full collection / reference = ${(full / reference).toFixed(2)}`,
      );
    }
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

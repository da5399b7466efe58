/**
 * Lifecycle benchmark (not part of `npm test`). One command from the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/lifecycle/lifecycle-bench.ts
 *
 * Starts the project's PostgreSQL/Redis (tools/stack/stack.sh) when STACK_PG_URL is not set,
 * creates a scratch database, boots the real API (migrations included) and the worker's module
 * graph in-process (periodic timers idle), loads BENCH_FINDINGS findings (default 1 000 000)
 * with set-based INSERT ... SELECT generate_series, BENCH_IN_WORK of them (default 100 000)
 * `in_progress` with a running remediation clock (started over the last 1.2 windows: some
 * breached, some approaching, most on track), and BENCH_BULK (default 50 000) `new` findings
 * in a product of their own. Then, each figure printed next to an in-run reference measured in
 * the same process on the same rows:
 *
 *   1. the hourly deadline check (SlaCheckService.run: reconcile, open violations with their
 *      action-log entries, notification jobs to Redis) — the first run after the load, which
 *      opens every violation, and a steady-state run (nothing new) — against a sequential scan
 *      of the whole findings table (`SELECT count(*) ... WHERE <unindexed column>`);
 *   2. the bulk status change POST /api/v1/findings/bulk-status over the product's findings
 *      (selection by filter, through HTTP: one action-log entry and one clock update each)
 *      to `confirmed` and then to `in_progress` (clock start), each against a plain
 *      `UPDATE findings SET status = <the same target> WHERE product_id = ...` of the same rows
 *      from the same state (a status change: an index key changes, no HOT update, like the
 *      bulk change; the rows are put back untimed).
 *
 * Beside each bulk figure: the CPU time the PostgreSQL backends of the scratch database used
 * (from /proc; the load moves it much less than the wall time) and the load average.
 *
 * Targets (issue 13): hourly check <= 5 s; bulk change >= 20 000 findings/s.
 * Env: BENCH_FINDINGS, BENCH_IN_WORK, BENCH_BULK, BENCH_KEEP_DB=1 keeps the database.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import { FindingsMetrics } from '../../../apps/findings-service/src/app/metrics/findings-metrics';
import { NOTIFICATION_QUEUE } from '../../../apps/findings-service/src/modules/notification-queue/sla-deadline-notification.job';
import { SlaCheckService } from '../../../apps/findings-service/src/modules/sla/sla-check.service';
import { WorkerModule } from '../../../apps/findings-service/src/worker/worker.module';
import {
  findingsBenchVars,
  listenOnLoopback,
  localLogin,
  scratchDatabase,
} from '../support/findings-bench-app';

const TOTAL = Number(process.env['BENCH_FINDINGS'] ?? 1_000_000);
const IN_WORK = Number(process.env['BENCH_IN_WORK'] ?? 100_000);
const BULK = Number(process.env['BENCH_BULK'] ?? 50_000);
const OTHER_PRODUCTS = 4;
const HOUR_MS = 3_600_000;

/**
 * $3 findings of one product; rows with g % $5 = 0 (one in `every`) are in work with a clock
 * started up to 1.2 windows ago (days per severity 7/14/30/90, INFO none).
 */
const LOAD = `
INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
  description, severity, status, file_path, scanner, sla_days, sla_started_at, sla_due_at,
  status_changed_at, first_seen_at, last_seen_at, created_at)
SELECT $1, $2, md5($4 || g::text) || md5(g::text || $4), 'code', 'rule-' || (g % 400),
  'Finding ' || g, 'Seeded description of finding ' || g, x.severity,
  CASE WHEN x.in_work THEN 'in_progress'
       ELSE (ARRAY['new','confirmed','fixed','false_positive','risk_accepted','wont_fix'])[1 + (g * 104729) % 6] END,
  'src/module-' || (g % 200) || '/file-' || (g % 37) || '.ts',
  (ARRAY['semgrep','trivy','zap','sonarqube','gitleaks'])[1 + (g * 31) % 5],
  x.days,
  CASE WHEN x.in_work THEN x.started END,
  CASE WHEN x.in_work AND x.days IS NOT NULL THEN x.started + x.days * interval '1 day' END,
  now() - interval '400 days', now() - interval '400 days', now(), now() - interval '400 days'
FROM generate_series(1::bigint, $3::bigint) AS g
CROSS JOIN LATERAL (
  SELECT s.severity, s.days, g % $5 = 0 AS in_work,
         now() - ((g * 7919) % (GREATEST(COALESCE(s.days, 30), 1) * 1728)) * interval '1 minute' AS started
    FROM (SELECT (ARRAY['CRITICAL','HIGH','MEDIUM','MEDIUM','LOW','LOW','INFO'])[1 + (g * 7919) % 7] AS severity) sv
    CROSS JOIN LATERAL (SELECT sv.severity,
      CASE sv.severity WHEN 'CRITICAL' THEN 7 WHEN 'HIGH' THEN 14 WHEN 'MEDIUM' THEN 30
                       WHEN 'LOW' THEN 90 END AS days) s
) x`;

interface Api {
  url: string;
  token: string;
}

async function post(api: Api, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

const rate = (rows: number, ms: number) => Math.round(rows / (ms / 1000)).toLocaleString('en');

/**
 * CPU milliseconds (user + system) the PostgreSQL backends connected to `db` have used so far,
 * read from /proc (the stack's PostgreSQL runs on this host); undefined where /proc cannot be
 * read. On a shared machine the CPU a statement costs moves much less with the load than its
 * wall time does.
 */
async function backendCpu(
  ds: DataSource,
  db: string,
): Promise<{ ms: number; pids: number[] } | undefined> {
  const rows = (await ds.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db])) as {
    pid: number;
  }[];
  const tickMs = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  let ticks = 0;
  try {
    for (const { pid } of rows) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    }
  } catch {
    return undefined;
  }
  return { ms: ticks * tickMs, pids: rows.map((r) => r.pid) };
}

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_lifecycle');
  const vars = findingsBenchVars(db);
  const config = loadFindingsConfig(vars, 'api');
  const app = await createFindingsApp(config);
  let worker: INestApplicationContext | undefined;
  try {
    const url = await listenOnLoopback(app); // applies the migrations
    worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot(loadFindingsConfig(vars, 'worker'), new FindingsMetrics(), {
        lifecycle: { slaCheckEveryMs: 24 * HOUR_MS, stateExpiryEveryMs: 24 * HOUR_MS },
      }),
      { logger: false },
    );
    const token = await localLogin(url);
    const api: Api = { url, token };

    const project = await post(api, '/api/v1/projects', { name: 'bench-lifecycle' });
    const projectId = String(project['id']);
    const newProduct = async (name: string) =>
      String((await post(api, `/api/v1/projects/${projectId}/products`, { name }))['id']);
    const bulkProduct = await newProduct('bench-bulk');
    const others: string[] = [];
    for (let i = 0; i < OTHER_PRODUCTS; i++) others.push(await newProduct(`bench-${i}`));

    const ds = app.get(DataSource);
    const rest = TOTAL - BULK;
    const perProduct = Math.floor(rest / OTHER_PRODUCTS);
    const every = Math.max(1, Math.floor(rest / IN_WORK));
    const loadStarted = performance.now();
    for (const product of others) {
      await ds.query(LOAD, [product, projectId, perProduct, product, every]);
    }
    // The bulk product: all `new`, no clock (every = a value no row reaches).
    await ds.query(LOAD, [bulkProduct, projectId, BULK, bulkProduct, BULK * 10]);
    await ds.query(`UPDATE findings SET status = 'new' WHERE product_id = $1`, [bulkProduct]);
    await ds.query('VACUUM ANALYZE findings');
    const [counts] = (await ds.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE sla_started_at IS NOT NULL)::int AS in_work,
              count(*) FILTER (WHERE sla_due_at <= now())::int AS breached
         FROM findings`,
    )) as { total: number; in_work: number; breached: number }[];
    console.log(
      `loaded ${counts.total.toLocaleString('en')} findings (${counts.in_work.toLocaleString('en')} in work with a running clock, ${counts.breached.toLocaleString('en')} of them past their deadline) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    // --- 1. the hourly check --------------------------------------------------------------
    const seqScan = async () =>
      timed(() => ds.query(`SELECT count(*) FROM findings WHERE sla_idle_ms >= 0`));
    await seqScan(); // warm the cache the same way for both
    const reference = await seqScan();
    const check = worker.get(SlaCheckService);
    const first = await timed(() => check.run());
    const steady = await timed(() => check.run());
    const reference2 = await seqScan();
    console.log('\nhourly deadline check over the whole table (ms):');
    console.log(
      `| reference: seq scan SELECT count(*) over ${counts.total.toLocaleString('en')} rows | ${reference.ms.toFixed(0)} (again after the checks: ${reference2.ms.toFixed(0)}) |`,
    );
    console.log(
      `| first run after the load: ${first.result.breached} breached + ${first.result.approaching} approaching opened, ${first.result.jobs} jobs | ${first.ms.toFixed(0)} |`,
    );
    console.log(
      `| steady state (nothing new; ${steady.result.reconciled} resolved, ${steady.result.jobs} jobs)  | ${steady.ms.toFixed(0)} |`,
    );
    console.log(`target <= 5000 ms: ${Math.max(first.ms, steady.ms) <= 5000 ? 'met' : 'MISSED'}`);

    // --- 2. the bulk status change ---------------------------------------------------------
    const withCpu = async <T>(work: () => Promise<T>) => {
      const cpuBefore = await backendCpu(ds, db.name);
      const run = await timed(work);
      const cpuAfter = await backendCpu(ds, db.name);
      // A backend that closed during the call took its CPU time with it: no figure then.
      const cpu =
        cpuBefore === undefined || cpuAfter === undefined
          ? 'n/a'
          : cpuBefore.pids.some((pid) => !cpuAfter.pids.includes(pid))
            ? 'n/a (a backend closed)'
            : `${(cpuAfter.ms - cpuBefore.ms).toFixed(0)} ms`;
      return { ...run, cpu };
    };
    const bulk = (status: string) =>
      withCpu(() =>
        post(api, '/api/v1/findings/bulk-status', {
          filters: { product_id: bulkProduct },
          status,
        }),
      );
    const plain = (status: string) =>
      withCpu(() =>
        ds.query(`UPDATE findings SET status = $2, updated_at = now() WHERE product_id = $1`, [
          bulkProduct,
          status,
        ]),
      );
    const loadBefore = loadavg()[0];
    // Reference: a plain UPDATE moving the same rows between the same two states (an index
    // key changes, so like the bulk change it is not a HOT update), then put back untimed.
    await plain('confirmed'); // warm-up: the rows and their index pages in the cache
    await plain('new');
    const ref = await plain('confirmed');
    await plain('new');
    const toConfirmed = await bulk('confirmed');
    const ref2 = await plain('in_progress');
    await plain('confirmed');
    const toInProgress = await bulk('in_progress');
    const [logged] = (await ds.query(
      `SELECT count(*)::int AS n FROM finding_actions WHERE project_id = $1 AND action = 'status_changed'`,
      [projectId],
    )) as { n: number }[];
    console.log(
      `\nbulk status change of ${BULK.toLocaleString('en')} findings (ms, findings/s, PostgreSQL CPU; load average ${loadBefore.toFixed(1)} -> ${loadavg()[0].toFixed(1)}):`,
    );
    console.log(
      `| reference: plain UPDATE SET status new -> confirmed (no log, no clock) | ${ref.ms.toFixed(0)} | ${rate(BULK, ref.ms)} | ${ref.cpu} |`,
    );
    console.log(
      `| POST bulk-status new -> confirmed (HTTP, one statement: lock + update + log) | ${toConfirmed.ms.toFixed(0)} | ${rate(Number(toConfirmed.result['changed']), toConfirmed.ms)} | ${toConfirmed.cpu} | changed ${String(toConfirmed.result['changed'])} |`,
    );
    console.log(
      `| reference: plain UPDATE SET status confirmed -> in_progress          | ${ref2.ms.toFixed(0)} | ${rate(BULK, ref2.ms)} | ${ref2.cpu} |`,
    );
    console.log(
      `| POST bulk-status confirmed -> in_progress (clock start)           | ${toInProgress.ms.toFixed(0)} | ${rate(Number(toInProgress.result['changed']), toInProgress.ms)} | ${toInProgress.cpu} | changed ${String(toInProgress.result['changed'])} |`,
    );
    console.log(`action-log entries written by the two bulk changes: ${logged?.n ?? 0}`);
    const slowest = Math.max(toConfirmed.ms, toInProgress.ms);
    console.log(
      `target >= 20 000 findings/s: ${BULK / (slowest / 1000) >= 20_000 ? 'met' : 'MISSED'}`,
    );
  } finally {
    const queue = new Queue(NOTIFICATION_QUEUE, {
      connection: { url: db.redisUrl },
      prefix: db.name,
    });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await worker?.close();
    await app.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

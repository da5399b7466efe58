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
 *      bulk change; the rows are put back untimed), and against a second reference, the floor
 *      of any exact log: the same plain UPDATE writing one small action-log row per finding in
 *      the same statement. BENCH_ROUNDS rounds (default 3) alternate the three, each timed
 *      change after a VACUUM (untimed); the medians and each round's figure are printed, with the ratio to the plain
 *      UPDATE (issue 34: >= 0.8) in wall time and in PostgreSQL CPU time. Then the call's fixed
 *      cost (an empty selection through HTTP) and the number of transactions it takes.
 *
 * Beside each bulk figure: the CPU time the PostgreSQL backends of the scratch database used
 * (from /proc; the load moves it much less than the wall time), the bench process's own CPU
 * (the API runs in it: Node's share) and the load average.
 *
 * Targets (issue 13): hourly check <= 5 s; bulk change >= 20 000 findings/s.
 * Env: BENCH_FINDINGS, BENCH_IN_WORK, BENCH_BULK, BENCH_ROUNDS, BENCH_KEEP_DB=1 keeps the
 * database (tools/bench/lifecycle/profile-bulk-status.ts profiles the statement on it).
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
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
import { applyRollupTriggerSwitch } from '../support/rollup-triggers';

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
 * read, per backend. On a shared machine the CPU a statement costs moves much less with the load than its
 * wall time does.
 */
async function backendCpu(
  ds: DataSource,
  db: string,
): Promise<{ ms: Map<number, number> } | undefined> {
  const rows = (await ds.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db])) as {
    pid: number;
  }[];
  const tickMs = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  const ms = new Map<number, number>();
  for (const { pid } of rows) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      if (!existsSync('/proc/self/stat')) return undefined; // no /proc here
      continue; // the backend just closed
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ms.set(pid, (Number(fields[11]) + Number(fields[12])) * tickMs); // utime, stime
  }
  return { ms };
}

/**
 * The statements TypeORM sends from this process (the API and the worker run in it), each a
 * round trip to PostgreSQL: recorded while `recording` is set.
 */
const sentStatements: string[] = [];
let recording = false;
const originalQuery = PostgresQueryRunner.prototype.query;
PostgresQueryRunner.prototype.query = function (
  this: PostgresQueryRunner,
  ...args: Parameters<PostgresQueryRunner['query']>
) {
  if (recording && !args[0].includes('pg_stat_activity'))
    sentStatements.push(args[0].replace(/\s+/g, ' ').trim().slice(0, 60));
  return originalQuery.apply(this, args);
} as PostgresQueryRunner['query'];

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_lifecycle');
  const vars = findingsBenchVars(db);
  const config = loadFindingsConfig(vars, 'api');
  const app = await createFindingsApp(config);
  let worker: INestApplicationContext | undefined;
  try {
    const url = await listenOnLoopback(app); // applies the migrations
    await applyRollupTriggerSwitch(db.url);
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
    if (process.env['BENCH_AXIS_VALUES'] === '1') {
      // A package, host and CVE on the findings (as ingestion gives them), so that the roll-up
      // count triggers have counters to change (BENCH_ROLLUP_TRIGGERS, docs/benchmarks.md#rollup).
      await ds.query(`UPDATE findings SET component = 'pkg-' || (abs(hashtext(id::text)) % 3000),
        host = 'app-' || (abs(hashtext(id::text || 'h')) % 190) || '.example.com',
        cve = CASE WHEN abs(hashtext(id::text || 'c')) % 5 < 3
                   THEN 'CVE-2024-' || (10000 + abs(hashtext(id::text || 'c')) % 800) END`);
      console.log('BENCH_AXIS_VALUES=1: findings carry a package, host and CVE (60 %)');
    }
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
      const node = process.cpuUsage();
      const run = await timed(work);
      const nodeUsed = process.cpuUsage(node);
      const cpuAfter = await backendCpu(ds, db.name);
      // Backends the pool opened during the call count whole; one it closed was idle.
      const cpuMs =
        cpuBefore === undefined || cpuAfter === undefined
          ? undefined
          : [...cpuAfter.ms].reduce((sum, [pid, ms]) => sum + ms - (cpuBefore.ms.get(pid) ?? 0), 0);
      return { ...run, cpuMs, nodeMs: (nodeUsed.user + nodeUsed.system) / 1000 };
    };
    const bulk = (status: string, product = bulkProduct) =>
      withCpu(() =>
        post(api, '/api/v1/findings/bulk-status', { filters: { product_id: product }, status }),
      );
    // The references run on one dedicated connection: a pooled backend that closes during the
    // call would take its CPU time with it.
    const ref = ds.createQueryRunner();
    await ref.connect();
    const plain = (status: string) =>
      withCpu(() =>
        ref.query(`UPDATE findings SET status = $2, updated_at = now() WHERE product_id = $1`, [
          bulkProduct,
          status,
        ]),
      );
    // The floor: the same plain UPDATE writing one action-log row per finding in the same
    // statement (no lock pass, no clock, a fixed small entry): what any exact log costs.
    const floor = (status: string) =>
      withCpu(() =>
        ref.query(
          `WITH u AS (
             UPDATE findings SET status = $2, updated_at = now() WHERE product_id = $1
             RETURNING id, project_id, status)
           INSERT INTO finding_actions (finding_id, project_id, actor_type, actor_label, action,
             from_value, to_value, at)
           SELECT id, project_id, 'system', 'bench-floor', 'status_changed',
             '{"status":"new"}'::jsonb, jsonb_build_object('status', status), now() FROM u`,
          [bulkProduct, status],
        ),
      );
    const reset = () =>
      ref.query(
        `UPDATE findings SET status = 'new', sla_started_at = NULL, sla_paused_at = NULL,
           sla_idle_ms = 0, sla_due_at = NULL WHERE product_id = $1`,
        [bulkProduct],
      );
    const emptyProduct = await newProduct('bench-empty');
    api.token = await localLogin(url);
    const loadBefore = loadavg()[0];
    // Warm-up: the rows and their index pages in the cache, the API's code paths compiled.
    await plain('confirmed');
    await reset();
    await bulk('confirmed', emptyProduct);
    interface Sample {
      ms: number;
      cpuMs: number | undefined;
      nodeMs: number;
    }
    const series = new Map<string, Sample[]>();
    const keep = <S extends Sample>(label: string, sample: S): S => {
      series.set(label, [...(series.get(label) ?? []), sample]);
      return sample;
    };
    const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
    const changedCounts: unknown[] = [];
    // Every timed change starts from a vacuumed table (untimed): the dead row versions of the
    // step before would make whichever ran next pay for finding room in the pages.
    const vacuumed = async <T>(work: () => Promise<T>) => {
      await ref.query('VACUUM findings, finding_actions');
      return work();
    };
    for (let round = 1; round <= ROUNDS; round++) {
      // A fresh sign-in each round: on a loaded machine the load and the rounds outlast a token.
      api.token = await localLogin(url);
      keep('plain UPDATE new -> confirmed', await vacuumed(() => plain('confirmed')));
      await reset();
      keep('floor: UPDATE + log INSERT new -> confirmed', await vacuumed(() => floor('confirmed')));
      await reset();
      const c = keep('POST bulk-status new -> confirmed', await vacuumed(() => bulk('confirmed')));
      changedCounts.push(c.result['changed']);
      keep('plain UPDATE confirmed -> in_progress', await vacuumed(() => plain('in_progress')));
      await plain('confirmed');
      keep(
        'floor: UPDATE + log INSERT confirmed -> in_progress',
        await vacuumed(() => floor('in_progress')),
      );
      await plain('confirmed');
      const p = keep(
        'POST bulk-status confirmed -> in_progress',
        await vacuumed(() => bulk('in_progress')),
      );
      changedCounts.push(p.result['changed']);
      await reset();
    }
    api.token = await localLogin(url);
    recording = true;
    const empty = await bulk('confirmed', emptyProduct);
    recording = false;
    const [logged] = (await ds.query(
      `SELECT count(*)::int AS n FROM finding_actions
        WHERE project_id = $1 AND action = 'status_changed' AND actor_label <> 'bench-floor'`,
      [projectId],
    )) as { n: number }[];
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const med = (label: string, pick: (s: Sample) => number | undefined) => {
      const xs = (series.get(label) ?? []).map(pick).filter((x): x is number => x !== undefined);
      return xs.length === 0 ? undefined : median(xs);
    };
    const fmt = (x: number | undefined, digits = 0) =>
      x === undefined ? 'n/a' : x.toFixed(digits);
    console.log(
      `\nbulk status change of ${BULK.toLocaleString('en')} findings, ${ROUNDS} rounds alternating (medians; PostgreSQL CPU from /proc; load average ${loadBefore.toFixed(1)} -> ${loadavg()[0].toFixed(1)}):`,
    );
    console.log(
      '| series | wall ms (each round) | findings/s | PostgreSQL CPU ms | Node CPU ms | ratio to plain UPDATE, wall | ratio, PostgreSQL CPU |',
    );
    for (const transition of ['new -> confirmed', 'confirmed -> in_progress']) {
      const refLabel = `plain UPDATE ${transition}`;
      for (const label of [
        refLabel,
        `floor: UPDATE + log INSERT ${transition}`,
        `POST bulk-status ${transition}`,
      ]) {
        const samples = series.get(label) ?? [];
        const ms = med(label, (s) => s.ms) ?? NaN;
        const cpu = med(label, (s) => s.cpuMs);
        const refCpu = med(refLabel, (s) => s.cpuMs);
        console.log(
          `| ${label} | ${fmt(ms)} (${samples.map((s) => s.ms.toFixed(0)).join(', ')}) | ${rate(BULK, ms)} | ${fmt(cpu)} (${samples.map((s) => fmt(s.cpuMs)).join(', ')}) | ${fmt(med(label, (s) => s.nodeMs))} | ${((med(refLabel, (s) => s.ms) ?? NaN) / ms).toFixed(2)} | ${cpu === undefined || refCpu === undefined ? 'n/a' : (refCpu / cpu).toFixed(2)} |`,
        );
      }
    }
    console.log(
      `fixed cost of the call (HTTP, auth, the statement over an empty selection): ${empty.ms.toFixed(1)} ms, Node CPU ${empty.nodeMs.toFixed(1)} ms; ${sentStatements.length} statements (round trips) sent:`,
    );
    for (const statement of sentStatements) console.log(`  ${statement}`);
    console.log(`changed per bulk call: ${changedCounts.join(', ')}`);
    console.log(`action-log entries written by the bulk changes: ${logged?.n ?? 0}`);
    const slowest = Math.max(
      med('POST bulk-status new -> confirmed', (s) => s.ms) ?? Infinity,
      med('POST bulk-status confirmed -> in_progress', (s) => s.ms) ?? Infinity,
    );
    console.log(
      `target >= 20 000 findings/s (issue 13): ${BULK / (slowest / 1000) >= 20_000 ? 'met' : 'MISSED'}`,
    );
    await ref.release();
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

/**
 * Inventory roll-up benchmark (issue 28; not part of `npm test`). One command from the
 * repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/rollup/rollup-bench.ts
 *
 * Starts the stack when STACK_PG_URL is not set, creates a scratch database, boots the real API
 * (migrations included), creates 2 projects x 5 products, loads BENCH_FINDINGS (1 000 000)
 * findings set-based (3 000 packages, ~190 hosts, 800 CVEs on 60 % of them, every severity and
 * state), VACUUM ANALYZE, then times sequential HTTP requests of GET /findings/inventory-rollup
 * (p50/p95/p99, BENCH_REQUESTS each, default 100) beside the in-run reference: a plain
 * `SELECT <axis>, count(*) FROM findings GROUP BY <axis>` of the same rows, SQL only.
 * Env: BENCH_FINDINGS, BENCH_REQUESTS, BENCH_KEEP_DB=1 keeps the database.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import {
  apiWrite,
  BENCH_ADMIN,
  benchProducts,
  type BenchApi,
  findingsBenchVars,
  listenOnLoopback,
  localLogin,
  percentile,
  scratchDatabase,
} from '../support/findings-bench-app';

const TOTAL = Number(process.env['BENCH_FINDINGS'] ?? 1_000_000);
const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 100);
const PROJECTS = 2;
const PRODUCTS_PER_PROJECT = 5;

/** $1 product, $2 project, $3 how many, $4 salt. */
const SEED_SQL = `
INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
  description, severity, status, host, component, component_version, cve, scanner, sla_days,
  first_seen_at, last_seen_at, created_at)
SELECT $1, $2, md5($4 || g::text) || md5(g::text || $4), 'network_cve',
  'rule-' || (g % 400),
  'Finding ' || g,
  'Seeded description of finding ' || g,
  (ARRAY['CRITICAL','HIGH','MEDIUM','MEDIUM','LOW','LOW','INFO'])[1 + (g * 7919) % 7],
  (ARRAY['new','new','new','confirmed','confirmed','in_progress','fixed','fixed','false_positive','risk_accepted','wont_fix','renewed'])[1 + (g * 104729) % 12],
  CASE WHEN g % 10 < 3 THEN 'app-' || (g % 97) || '.prod.example.com'
       WHEN g % 10 < 8 THEN 'app-' || (g % 89) || '.staging.example.com' ELSE NULL END,
  'pkg-' || ((g * 2654435761) % 3000),
  '1.' || (g % 7),
  CASE WHEN g % 5 < 3 THEN 'CVE-2024-' || (10000 + (g * 40503) % 800) END,
  (ARRAY['semgrep','trivy','zap','sonarqube','gitleaks'])[1 + (g * 31) % 5],
  30,
  now() - ((g % 525600) || ' minutes')::interval,
  now() - ((g % 10000) || ' minutes')::interval,
  now() - ((g % 525600) || ' minutes')::interval
FROM generate_series(1::bigint, $3::bigint) AS g`;

async function timed(
  n: number,
  run: () => Promise<number>,
): Promise<{ times: number[]; rows: number }> {
  for (let i = 0; i < Math.min(5, n); i++) await run(); // warm-up
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    rows = await run();
    times.push(performance.now() - started);
  }
  return { times: times.sort((a, b) => a - b), rows };
}

function line(label: string, r: { times: number[]; rows: number }, reference?: number): string {
  const p95 = percentile(r.times, 95);
  const ratio = reference === undefined ? '' : (p95 / reference).toFixed(2);
  return `| ${label.padEnd(62)} | ${String(r.rows).padStart(5)} | ${percentile(r.times, 50).toFixed(1).padStart(6)} | ${p95.toFixed(1).padStart(6)} | ${percentile(r.times, 99).toFixed(1).padStart(6)} | ${ratio.padStart(5)} |`;
}

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_rollup');
  const app = await createFindingsApp(loadFindingsConfig(findingsBenchVars(db), 'api'));
  try {
    const url = await listenOnLoopback(app);
    const api: BenchApi = { url, token: await localLogin(url) };
    const { projectIds, products } = await benchProducts(api, PROJECTS, PRODUCTS_PER_PROJECT);
    const ds = app.get(DataSource);
    const perProduct = Math.floor(TOTAL / products.length);
    const loadStarted = performance.now();
    for (const product of products)
      await ds.query(SEED_SQL, [product.id, product.projectId, perProduct, product.id]);
    await ds.query('VACUUM ANALYZE findings');
    // The load statements' roll-up deltas folded into the counts (the first roll-up read would
    // do it), then the moved rows vacuumed away: as autovacuum would.
    await ds.query('SELECT findings_rollup_fold()');
    await ds.query('VACUUM ANALYZE finding_rollup_counts, finding_rollup_deltas');
    // A transaction of another session open during a VACUUM (other benches and suites on the
    // shared stack) keeps pages from being marked all-visible, and the planner then leaves the
    // index-only scan: vacuum again until the visibility map covers the table (at most 10 x).
    for (let i = 0; i < 10; i++) {
      const [vm] = (await ds.query(
        `SELECT relallvisible, relpages FROM pg_class WHERE relname = 'findings'`,
      )) as { relallvisible: number; relpages: number }[];
      console.log(
        `visibility map: ${vm?.relallvisible ?? 0} of ${vm?.relpages ?? 0} pages all-visible`,
      );
      if (vm && vm.relallvisible >= vm.relpages) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await ds.query('VACUUM findings');
    }
    console.log(
      `loaded ${perProduct * products.length} findings in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s (INSERT ... SELECT with all indexes, then VACUUM ANALYZE)`,
    );

    const memberEmail = 'bench-member@example.test';
    const user = await apiWrite(api, '/api/v1/admin/users', {
      email: memberEmail,
      password: BENCH_ADMIN.password,
      is_admin: false,
    });
    await apiWrite(api, `/api/v1/projects/${projectIds[0]}/members/${String(user['id'])}`, {
      role: 'analyst',
    });
    const member = await localLogin(url, memberEmail, BENCH_ADMIN.password);

    const http =
      (path: string, token = api.token) =>
      async () => {
        const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { data: { items: unknown[] } };
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
        return body.data.items.length;
      };
    const sql = (text: string) => async () => ((await ds.query(text)) as unknown[]).length;

    console.log(
      `\n${REQUESTS} sequential requests each (ms); ratio = p95 / p95 of the axis's reference`,
    );
    console.log(`| ${'request'.padEnd(62)} | rows  | p50    | p95    | p99    | ratio |`);
    console.log(`|${'-'.repeat(64)}|-------|--------|--------|--------|-------|`);
    const references: Record<string, number> = {};
    for (const [axis, column] of [
      ['package', 'component'],
      ['host', 'host'],
      ['cve', 'cve'],
    ] as const) {
      const ref = await timed(
        REQUESTS,
        sql(`SELECT ${column}, count(*) FROM findings GROUP BY ${column}`),
      );
      references[axis] = percentile(ref.times, 95);
      console.log(line(`reference: SELECT ${column}, count(*) ... GROUP BY ${column} (SQL)`, ref));
    }
    const PKG = '/api/v1/findings/inventory-rollup?axis=package';
    const HOST = '/api/v1/findings/inventory-rollup?axis=host';
    const EVERY = encodeURIComponent('severity:critical|high|medium|low|info');
    // The precomputed counts answer the same first page as the findings do.
    for (const path of [PKG, HOST]) {
      const page = async (p: string) =>
        JSON.stringify(
          await (
            await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${api.token}` } })
          ).json(),
        );
      const same = (await page(path)) === (await page(`${path}&q=${EVERY}`));
      console.log(`${path}: first page from the counts equals the one from findings: ${same}`);
      if (!same) throw new Error(`${path}: the counts and the findings disagree`);
    }
    const [counts] = (await ds.query(
      `SELECT count(*)::int AS n, pg_size_pretty(pg_total_relation_size('finding_rollup_counts')) AS size FROM finding_rollup_counts`,
    )) as { n: number; size: string }[];
    console.log(`finding_rollup_counts: ${counts?.n} rows, ${counts?.size}`);
    const cases: [string, string, string, string?][] = [
      [
        'package',
        'axis=package (admin, everything)',
        '/api/v1/findings/inventory-rollup?axis=package',
      ],
      ['host', 'axis=host (admin, everything)', '/api/v1/findings/inventory-rollup?axis=host'],
      ['cve', 'axis=cve (admin, everything)', '/api/v1/findings/inventory-rollup?axis=cve'],
      [
        'package',
        'axis=package, sort=key',
        '/api/v1/findings/inventory-rollup?axis=package&sort=key',
      ],
      [
        'package',
        'axis=package, sort=critical',
        '/api/v1/findings/inventory-rollup?axis=package&sort=critical',
      ],
      [
        'package',
        'axis=package&severity=CRITICAL,HIGH&status_group=attention',
        '/api/v1/findings/inventory-rollup?axis=package&severity=CRITICAL,HIGH&status_group=attention',
      ],
      [
        'host',
        'axis=host&q=severity:critical|high',
        `/api/v1/findings/inventory-rollup?axis=host&q=${encodeURIComponent('severity:critical|high')}`,
      ],
      // The same rows counted from findings (today's statement before the counts; a `q` that
      // every finding matches makes the roll-up leave the precomputed counts).
      ['package', 'axis=package from findings (q: every severity)', `${PKG}&q=${EVERY}`],
      ['host', 'axis=host from findings (q: every severity)', `${HOST}&q=${EVERY}`],
      [
        'package',
        'axis=package as a member of 1 of 2 projects',
        '/api/v1/findings/inventory-rollup?axis=package',
        member,
      ],
      [
        'host',
        'axis=host as a member of 1 of 2 projects',
        '/api/v1/findings/inventory-rollup?axis=host',
        member,
      ],
    ];
    for (const [axis, label, path, token] of cases) {
      console.log(line(label, await timed(REQUESTS, http(path, token)), references[axis]));
    }
    const baseline = await timed(REQUESTS, async () => {
      await fetch(`${url}/api/v1/auth/me`, {
        headers: { authorization: `Bearer ${api.token}` },
      }).then((r) => r.arrayBuffer());
      return 1;
    });
    console.log(line('baseline GET /api/v1/auth/me (no findings query)', baseline));
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

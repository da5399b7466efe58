/**
 * Findings query benchmark (not part of `npm test`). One command from the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/query/query-bench.ts
 *
 * Starts the project's PostgreSQL/Redis (tools/stack/stack.sh) when STACK_PG_URL is not set,
 * creates a scratch database, boots the real API (migrations included), creates 2 projects x
 * 5 products through the API, loads 1 000 000 findings with one set-based INSERT ... SELECT
 * generate_series per product, ANALYZEs, then times requests through HTTP, sequentially:
 *   - list filtered by severity + status
 *   - q `severity:critical|high host:*prod*`
 *   - q `scanner:semgrep OR scanner:trivy file_path:src`
 *   - a deep keyset page (cursor after following 50 pages of 50), default and severity sort
 *   - the same filter as a project member (visibility by project list)
 *   - free-text search: the `search` filter and bare query terms (search-seed.ts)
 * and prints p50/p95/p99 per request kind (BENCH_REQUESTS each, default 200); then the count and
 * the groups of the selection (BENCH_OVERVIEW_REQUESTS each, default 20).
 * Env: BENCH_FINDINGS (default 1000000), BENCH_KEEP_DB=1 keeps the database,
 * BENCH_DB=<kept database> runs the requests on it without seeding again (bench-session.ts),
 * BENCH_OVERVIEW_REQUESTS=0 skips the count and groups, BENCH_SQL_TEXTS=1 prints the
 * statements each request kind sent, BENCH_EXPLAIN=1 the list statement's planning and
 * execution time in PostgreSQL. The API runs in a process of its own (api-under-test.ts:
 * the service's bootstrap, APP_ENV=production, access log at info to BENCH_SERVER_LOG or
 * /dev/null, node flags from BENCH_SERVER_NODE_ARGS — `--cpu-prof --cpu-prof-dir=DIR` profiles
 * it —, BENCH_SERVER_HEAP_PROFILE=<file> its allocations); BENCH_API_IN_PROCESS=1 runs it in
 * this process beside the client, as before. The mode
 * is printed. Each row's `sql/req` is the statements the API sent per request (pg clients
 * counted in the API's process), `cpu us` the API process's CPU per request (in-process: API
 * and the bench's client together), `KB/req` the bytes it allocated on the V8 heap per request,
 * `GCs` its scavenges + other collections over the kind's requests and `gc us` their pauses per
 * request (heap-accounting.ts); BENCH_CPU_PROFILE=<dir> writes a CPU profile of this
 * process per request kind (bench-session.ts).
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { DataSource } from 'typeorm';
import { searchCases } from './search-seed';
import { startApi, type ApiUnderTest } from './api-under-test';
import { explainList, keptDatabase, keptProducts, profiled, seedQueryBench } from './bench-session';
import {
  BENCH_ADMIN,
  benchProducts,
  type BenchApi,
  localLogin,
  percentile,
  scratchDatabase,
} from '../support/findings-bench-app';

const TOTAL = Number(process.env['BENCH_FINDINGS'] ?? 1_000_000);
const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 200);
const OVERVIEW_REQUESTS = Number(process.env['BENCH_OVERVIEW_REQUESTS'] ?? 20);
const PROJECTS = 2;
/** BENCH_EXPLAIN=1: the data source the list statements are explained on after each kind. */
let explainWith: DataSource | undefined;
/** The API being measured (its process's CPU and SQL statements). */
let server: ApiUnderTest;
const PRODUCTS_PER_PROJECT = 5;

async function call(
  api: BenchApi,
  path: string,
  token = api.token,
): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body: unknown = await res.json();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function measure(
  label: string,
  paths: () => string,
  api: BenchApi,
  token?: string,
  requests = REQUESTS,
): Promise<string> {
  for (let i = 0; i < Math.min(10, requests); i++) await call(api, paths(), token); // warm-up
  const times: number[] = [];
  let rows = 0;
  await server.takeSql(); // the warm-up's statements
  const cpuBefore = server.cpuSeconds();
  await profiled(label, async () => {
    for (let i = 0; i < requests; i++) {
      const { ms, body } = await call(api, paths(), token);
      times.push(ms);
      const data = (body as { data: { items?: unknown[]; count?: number } }).data;
      rows = data.items?.length ?? data.count ?? 0;
    }
  });
  const cpuPerRequest = Math.round(((server.cpuSeconds() - cpuBefore) * 1e6) / requests).toString();
  const sql = await server.takeSql();
  times.sort((a, b) => a - b);
  const perRequest = (sql.count / requests).toFixed(1);
  const { heap } = sql;
  const kbPerRequest = Math.round(heap.allocatedBytes / 1024 / requests).toString();
  const gcs = `${heap.scavenges}+${heap.otherGcs}`;
  const gcPerRequest = Math.round((heap.scavengeMicros + heap.otherGcMicros) / requests).toString();
  const line = `| ${label.padEnd(58)} | ${rows.toString().padStart(4)} | ${percentile(times, 50).toFixed(1).padStart(6)} | ${percentile(times, 95).toFixed(1).padStart(6)} | ${percentile(times, 99).toFixed(1).padStart(6)} | ${perRequest.padStart(7)} | ${cpuPerRequest.padStart(7)} | ${kbPerRequest.padStart(6)} | ${gcs.padStart(5)} | ${gcPerRequest.padStart(6)} |`;
  console.log(line);
  for (const [text, n] of sql.texts) console.log(`    ${(n / requests).toFixed(1)} x ${text}`);
  if (explainWith) console.log(`    ${await explainList(explainWith, sql.lastList)}`);
  return line;
}

async function main(): Promise<void> {
  const kept = keptDatabase();
  const db = kept ?? (await scratchDatabase('bench_query'));
  server = await startApi(db);
  console.log(`mode: ${server.mode}`);
  try {
    const url = server.url;
    const token = await localLogin(url);
    const api: BenchApi = { url, token };

    const ds = server.ds;
    if (process.env['BENCH_EXPLAIN'] === '1') explainWith = ds;
    const { projectIds, products } = kept
      ? await keptProducts(ds)
      : await benchProducts(api, PROJECTS, PRODUCTS_PER_PROJECT);
    // A project member (analyst of project 0: half of the findings).
    const memberEmail = 'bench-member@example.test';
    if (!kept) await seedQueryBench(api, ds, TOTAL, products, projectIds[0], memberEmail);
    const memberToken = await localLogin(url, memberEmail, BENCH_ADMIN.password);

    async function deepCursor(query: string): Promise<string> {
      let cursor = '';
      for (let page = 0; page < 50; page++) {
        const { body } = await call(
          api,
          `/api/v1/findings?limit=50${query}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        cursor = (body as { data: { next_cursor: string } }).data.next_cursor;
      }
      return cursor;
    }
    const deepDefault = await deepCursor('');
    const deepSeverity = await deepCursor('&sort=severity');
    const enc = encodeURIComponent;

    const me = await (async () => {
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now();
        await fetch(`${url}/api/v1/auth/me`, {
          headers: { authorization: `Bearer ${token}` },
        }).then((r) => r.arrayBuffer());
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    })();
    console.log(
      `baseline GET /api/v1/auth/me (auth, rate limit, no findings query): p50 ${percentile(me, 50).toFixed(1)} ms, p95 ${percentile(me, 95).toFixed(1)} ms`,
    );
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\n${REQUESTS} sequential requests each, limit 50, through HTTP (ms), load ${load}:`,
    );
    console.log(
      `| ${'request'.padEnd(58)} | rows | p50    | p95    | p99    | sql/req | cpu us  | KB/req | GCs   | gc us  |`,
    );
    console.log(
      `|${'-'.repeat(60)}|------|--------|--------|--------|---------|---------|--------|-------|--------|`,
    );
    await measure(
      'severity=CRITICAL,HIGH & status=new,confirmed (admin)',
      () => '/api/v1/findings?severity=CRITICAL,HIGH&status=new,confirmed',
      api,
    );
    await measure(
      'q=severity:critical|high host:*prod*',
      () => `/api/v1/findings?q=${enc('severity:critical|high host:*prod*')}`,
      api,
    );
    await measure(
      'q=scanner:semgrep OR scanner:trivy file_path:src',
      () => `/api/v1/findings?q=${enc('scanner:semgrep OR scanner:trivy file_path:src')}`,
      api,
    );
    await measure(
      'deep keyset page (after 50 pages), created_at desc',
      () => `/api/v1/findings?cursor=${deepDefault}`,
      api,
    );
    await measure(
      'deep keyset page (after 50 pages), sort=severity desc',
      () => `/api/v1/findings?sort=severity&cursor=${deepSeverity}`,
      api,
    );
    await measure(
      'status_group=attention, sort=severity (admin)',
      () => '/api/v1/findings?status_group=attention&sort=severity',
      api,
    );
    await measure(
      'member of 1 project: severity=CRITICAL&status=new',
      () => '/api/v1/findings?severity=CRITICAL&status=new',
      api,
      memberToken,
    );
    await measure(
      'product_id=<one product> & q=tags:pci',
      () => `/api/v1/findings?product_id=${products[3].id}&q=tags:pci`,
      api,
    );
    // A fresh sign-in: on a loaded machine the run outlives the first access token.
    api.token = await localLogin(url);
    for (const [label, path] of searchCases(products[3].id)) await measure(label, () => path, api);
    // The selection as a whole (issue 25): they read every matching row, so fewer requests.
    if (OVERVIEW_REQUESTS <= 0) return; // BENCH_OVERVIEW_REQUESTS=0: the lists only
    console.log(`\n${OVERVIEW_REQUESTS} sequential requests each (rows = groups, or the count):`);
    await measure(
      'count, everything (estimate above 10 000)',
      () => '/api/v1/findings/count',
      api,
      undefined,
      OVERVIEW_REQUESTS,
    );
    await measure(
      'count, severity=CRITICAL & status=new & product',
      () => `/api/v1/findings/count?severity=CRITICAL&status=new&product_id=${products[3].id}`,
      api,
      undefined,
      OVERVIEW_REQUESTS,
    );
    await measure(
      'groups by=rule, one product (~100 000 rows)',
      () => `/api/v1/findings/groups?by=rule&product_id=${products[3].id}`,
      api,
      undefined,
      OVERVIEW_REQUESTS,
    );
    await measure(
      'groups by=file, one product (~100 000 rows)',
      () => `/api/v1/findings/groups?by=file&product_id=${products[3].id}`,
      api,
      undefined,
      OVERVIEW_REQUESTS,
    );
    await measure(
      'groups by=rule, everything (1 M rows)',
      () => '/api/v1/findings/groups?by=rule',
      api,
      undefined,
      Math.min(OVERVIEW_REQUESTS, 5),
    );
  } finally {
    console.log(`API process peak RSS: ${server.peakMemory()}`);
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    await server.close();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

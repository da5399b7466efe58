// What the query bench needs beside its requests: the seed, or a seeded database reused while
// iterating (BENCH_DB); the SQL statements the API sends per request, counted; the list
// statement's planning and execution (BENCH_EXPLAIN); CPU profiles (BENCH_CPU_PROFILE).
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  apiWrite,
  BENCH_ADMIN,
  type BenchApi,
  type ScratchDatabase,
} from '../support/findings-bench-app';
import { takeHeapCounts, type HeapCounts } from './heap-accounting';
import { indexForSearch, QUERY_SEED_FINDINGS_SQL } from './search-seed';
import { databaseUrl, stackEnv } from '../support/stack-db';

/**
 * BENCH_DB=<name of a database kept with BENCH_KEEP_DB=1>: the bench runs its requests on it
 * without seeding or indexing again (never dropped). Undefined when BENCH_DB is not set.
 */
export function keptDatabase(): ScratchDatabase | undefined {
  const name = process.env['BENCH_DB'];
  if (!name) return undefined;
  if (!/^bench_query_\d+$/.test(name))
    throw new Error(`BENCH_DB=${name}: not a query bench database`);
  const env = stackEnv();
  return {
    name,
    url: databaseUrl(env['STACK_PG_URL'], name),
    redisUrl: env['REDIS_URL'],
    drop: () => Promise.resolve(console.log(`reused database ${name} (kept)`)),
  };
}

/** Loads the findings, indexes them for search and adds the project member. */
export async function seedQueryBench(
  api: BenchApi,
  ds: DataSource,
  total: number,
  products: { id: string; projectId: string }[],
  memberProjectId: string,
  memberEmail: string,
): Promise<void> {
  const perProduct = Math.floor(total / products.length);
  const loadStarted = performance.now();
  for (const product of products)
    await ds.query(QUERY_SEED_FINDINGS_SQL, [
      product.id,
      product.projectId,
      perProduct,
      product.id,
    ]);
  await ds.query('VACUUM ANALYZE findings');
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  console.log(
    `loaded ${perProduct * products.length} findings into ${products.length} products in ${loadSeconds.toFixed(1)} s (${Math.round((perProduct * products.length) / loadSeconds)} rows/s, INSERT ... SELECT with all indexes)`,
  );
  await indexForSearch(ds);
  const user = await apiWrite(api, '/api/v1/admin/users', {
    email: memberEmail,
    password: BENCH_ADMIN.password,
    is_admin: false,
  });
  await apiWrite(api, `/api/v1/projects/${memberProjectId}/members/${String(user['id'])}`, {
    role: 'analyst',
  });
}

/** The products of a kept database, in the order the bench created them. */
export async function keptProducts(
  ds: DataSource,
): Promise<{ projectIds: string[]; products: { id: string; projectId: string }[] }> {
  const rows = (await ds.query(
    `SELECT pr.id, pr.project_id FROM products pr
       JOIN projects p ON p.id = pr.project_id
      ORDER BY p.created_at, p.id, pr.created_at, pr.id`,
  )) as { id: string; project_id: string }[];
  const products = rows.map((r) => ({ id: r.id, projectId: r.project_id }));
  return { projectIds: [...new Set(products.map((p) => p.projectId))], products };
}

/**
 * Counts the statements every pg client of this process sends (TypeORM's pool included):
 * in the process that runs the API (the bench's in-process mode, or server-process.ts), the
 * count per request is what one request costs in SQL round trips (the bench's own seeding is
 * not measured through it: it is taken before the requests).
 */
export const sqlCounter = ((): {
  count: number;
  texts: Map<string, number>;
  /** The last list statement (`FROM findings f`) and its values, for explainList. */
  lastList?: { text: string; values: unknown[] };
} => {
  const counter: ReturnType<() => typeof sqlCounter> = { count: 0, texts: new Map() };
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function countedQuery(this: unknown, ...args: unknown[]): unknown {
    counter.count++;
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: string }).text);
    if (text.includes('FROM findings f') && !text.startsWith('EXPLAIN'))
      counter.lastList = { text, values: Array.isArray(args[1]) ? args[1] : [] };
    if (process.env['BENCH_SQL_TEXTS'] === '1') {
      const head = text.replace(/\s+/g, ' ').slice(0, 90);
      counter.texts.set(head, (counter.texts.get(head) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
  return counter;
})();

/** The statements counted since the last take (what the server process reports, too). */
export interface SqlCounts {
  count: number;
  texts: [string, number][];
  lastList?: { text: string; values: unknown[] };
  /** The API process's heap allocation and collections since the last take (heap-accounting.ts). */
  heap: HeapCounts;
}

/** Reads and resets the counter's statements since the previous take. */
export function takeSqlCounts(counter: typeof sqlCounter): SqlCounts {
  const taken: SqlCounts = {
    count: counter.count,
    texts: [...counter.texts],
    lastList: counter.lastList,
    heap: takeHeapCounts(),
  };
  counter.count = 0;
  counter.texts.clear();
  return taken;
}

/**
 * The last list statement's planning and execution time in PostgreSQL (`EXPLAIN ANALYZE`,
 * median of 5): what one request's statement costs the database, apart from HTTP.
 */
export async function explainList(
  ds: DataSource,
  last: SqlCounts['lastList'] = sqlCounter.lastList,
): Promise<string> {
  if (!last) return 'no list statement';
  const planning: number[] = [];
  const execution: number[] = [];
  for (let i = 0; i < 5; i++) {
    const rows = (await ds.query(`EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) ${last.text}`, [
      ...last.values,
    ])) as { 'QUERY PLAN': [{ 'Planning Time': number; 'Execution Time': number }] }[];
    planning.push(rows[0]['QUERY PLAN'][0]['Planning Time']);
    execution.push(rows[0]['QUERY PLAN'][0]['Execution Time']);
  }
  const median = (v: number[]): string => v.sort((a, b) => a - b)[2].toFixed(2);
  return `statement: planning ${median(planning)} ms, execution ${median(execution)} ms (median of 5 EXPLAIN ANALYZE)`;
}

/**
 * BENCH_CPU_PROFILE=<dir>: a V8 CPU profile of each request kind's measured requests of this
 * process (in-process mode: the API and the bench's HTTP client, which `profile-summary.ts`
 * splits; with the API in its own process only the client — profile the server with
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"),
 * written as `<dir>/<nn>-<label>.cpuprofile`. Without it, `run` just runs.
 */
export async function profiled<T>(label: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env['BENCH_CPU_PROFILE'];
  if (!dir) return run();
  if (!profilerSession) {
    profilerSession = new Session();
    profilerSession.connect();
  }
  const session = profilerSession;
  const post = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 }); // µs
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    mkdirSync(dir, { recursive: true });
    const slug = label
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 50);
    writeFileSync(
      join(dir, `${String(++profileCount).padStart(2, '0')}-${slug}.cpuprofile`),
      JSON.stringify(profile),
    );
  }
}
let profilerSession: Session | undefined;
let profileCount = 0;

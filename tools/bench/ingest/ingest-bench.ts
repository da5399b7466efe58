/**
 * Ingestion benchmark (not part of `npm test`). One command from the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/ingest/ingest-bench.ts
 *
 * Starts the local stack (tools/stack/stack.sh up), builds the findings-service bundles, creates
 * a fresh database `bench_ingest`, boots the findings API and worker as child processes, generates a realistic SARIF file with
 * 100 000 results (~60 MB), uploads it through `POST /api/v1/products/{id}/reports` and times
 * upload → report `completed`; prints findings/s and the worker's peak RSS (VmHWM). Then it
 * uploads the same file again (all duplicates) and prints that rate. Finally a ~100 MB file
 * (130 000 results, more context per result) into a fresh product, for the peak-RSS target.
 * Each line also gives the CPU seconds used meanwhile by the worker, the API and PostgreSQL
 * (all `postgres` processes): on 2 cores, their sum / 2 is the floor of the elapsed time.
 * After the measured ingests it times a plain COPY of the stored rows into an unindexed temp
 * table (copy-reference.ts) and prints each rate's ratio to it: compare machines by the ratio.
 * Env: BENCH_RESULTS (default 100000), BENCH_SKIP_LARGE=1, BENCH_DIR (default OS temp dir),
 * BENCH_FROM_SOURCE=1 (run the TypeScript sources instead of the bundles), BENCH_COLD=1 (no
 * warm-up report: the measured first ingest also pays the parser thread's start and JIT),
 * BENCH_WORKER_NODE_ARGS (extra node flags of the worker, e.g. `--cpu-prof --cpu-prof-dir=DIR`
 * or `--max-semi-space-size=64`), BENCH_POLL_MS (report status polling interval, default 250).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  createReadStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { plainCopyReference } from './copy-reference';
import { writeSarif } from './sarif-file';
import { stackEnv } from '../support/stack-db';
import { applyRollupTriggerSwitch } from '../support/rollup-triggers';

const ROOT = join(__dirname, '../../..');
const PORT = 38_411;
const API = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'bench-admin@example.test', password: 'bench-admin-password-1' };
const RESULTS = Number(process.env.BENCH_RESULTS ?? 100_000);

async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const db = new Client({ connectionString: adminUrl });
  await db.connect();
  await db.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await db.query(`CREATE DATABASE ${name}`);
  await db.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Boots a findings-service process from the production bundle (dist/apps/findings-service,
 * built by `tools/build.sh findings-service` at the start), as a deployment runs it; with
 * BENCH_FROM_SOURCE=1 from the TypeScript sources through @swc-node/register instead (slower
 * start, and the ingestion parser thread compiles its modules on first use).
 */
function boot(name: 'main' | 'worker', env: Record<string, string>, nodeArgs: string[] = []) {
  const fromSource = process.env.BENCH_FROM_SOURCE === '1';
  const entry = fromSource
    ? ['-r', '@swc-node/register', `apps/findings-service/src/${name}.ts`]
    : [`dist/apps/findings-service/${name}.js`];
  return spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, SWC_NODE_PROJECT: 'tsconfig.base.json' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function http(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: { data?: Record<string, unknown> } }> {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: res.status,
    json: (await res.json().catch(() => ({}))) as { data?: Record<string, unknown> },
  };
}

async function waitForApi(): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${API}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('API did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Streams the file as multipart/form-data (never read into memory). */
function upload(token: string, productId: string, file: string): Promise<string> {
  const boundary = `bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.sarif"\r\nContent-Type: application/sarif+json\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = request(`${API}/api/v1/products/${productId}/reports`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': length,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          data?: { report_id?: string };
        };
        if (res.statusCode !== 202 || !body.data?.report_id) {
          reject(new Error(`upload answered ${res.statusCode}: ${JSON.stringify(body)}`));
        } else resolve(body.data.report_id);
      });
    });
    req.on('error', reject);
    req.write(head);
    const stream = createReadStream(file, { highWaterMark: 1 << 20 });
    stream.on('error', reject);
    stream.pipe(req, { end: false });
    stream.on('end', () => req.end(tail));
  });
}

/**
 * Upload start (client clock) to the report's `finished_at` (server clock, same machine). The
 * status is polled every BENCH_POLL_MS (250): polling faster costs the API CPU that the worker
 * and PostgreSQL need, and the end time comes from the server anyway.
 */
async function timedIngest(token: string, productId: string, file: string) {
  const startedAt = Date.now();
  const started = performance.now();
  const reportId = await upload(token, productId, file);
  const uploadedMs = performance.now() - started;
  for (;;) {
    await new Promise((r) => setTimeout(r, Number(process.env.BENCH_POLL_MS ?? 250)));
    const { json } = await http('GET', `/api/v1/reports/${reportId}`, token);
    const report = json.data as {
      status: string;
      counts: Record<string, number>;
      failure_reason: string | null;
      finished_at: string | null;
    };
    if (report.status === 'failed') throw new Error(`report failed: ${report.failure_reason}`);
    if (report.status === 'completed') {
      const ms = Date.parse(String(report.finished_at)) - startedAt;
      return { ms, uploadedMs, counts: report.counts };
    }
  }
}

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

/**
 * CPU seconds (user + system) of a process, or, when pid is 0, of every `postgres` process (of
 * those serving `database` only, when given).
 */
function cpuSeconds(pid: number, database?: string): number {
  const ticks = (statPath: string): number => {
    try {
      const stat = readFileSync(statPath, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    } catch {
      return 0; // exited meanwhile
    }
  };
  if (pid) return ticks(`/proc/${pid}/stat`) / 100;
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      // `database`: only the backends (and autovacuum workers) of that database, by their
      // process title ("postgres: USER DATABASE HOST(PORT) STATE").
      const title = database ? readFileSync(`/proc/${entry}/cmdline`, 'utf8') : '';
      if (database && !new RegExp(` ${database}(?![\\w])`).test(title)) continue;
      sum += ticks(`/proc/${entry}/stat`);
    } catch {
      // exited meanwhile
    }
  }
  return sum / 100;
}

interface CpuSnapshot {
  worker: number;
  api: number;
  postgres: number;
  /** The bench database's own backends: other work on the shared PostgreSQL left out. */
  benchDb: number;
}

function cpuSnapshot(worker: ChildProcess, api: ChildProcess): CpuSnapshot {
  return {
    worker: cpuSeconds(worker.pid ?? -1),
    api: cpuSeconds(api.pid ?? -1),
    postgres: cpuSeconds(0),
    benchDb: cpuSeconds(0, 'bench_ingest'),
  };
}

function print(
  label: string,
  run: { ms: number; uploadedMs: number; counts: Record<string, number> },
  rss: number,
  cpu?: { before: CpuSnapshot; after: CpuSnapshot },
): number {
  const rate = Math.round((run.counts.results / run.ms) * 1000);
  const used = cpu
    ? `; CPU s worker ${(cpu.after.worker - cpu.before.worker).toFixed(1)}, ` +
      `API ${(cpu.after.api - cpu.before.api).toFixed(1)}, ` +
      `postgres ${(cpu.after.postgres - cpu.before.postgres).toFixed(1)} ` +
      `(of it bench_ingest's backends ${(cpu.after.benchDb - cpu.before.benchDb).toFixed(1)}); ` +
      `load ${loadavg()[0].toFixed(1)}`
    : '';
  console.log(
    `${label}: ${run.counts.results} results in ${(run.ms / 1000).toFixed(2)} s ` +
      `(upload ${(run.uploadedMs / 1000).toFixed(2)} s) = ${rate} findings/s; ` +
      `new ${run.counts.new}, updated ${run.counts.updated}; worker peak RSS ${rss} MiB${used}`,
  );
  return rate;
}

/** Returns findings/s. */
async function measured(
  label: string,
  worker: ChildProcess,
  api: ChildProcess,
  ingest: () => ReturnType<typeof timedIngest>,
): Promise<number> {
  const before = cpuSnapshot(worker, api);
  const run = await ingest();
  const after = cpuSnapshot(worker, api);
  return print(label, run, peakRssMiB(worker.pid ?? 0), { before, after });
}

/** The figures next to a plain COPY of the same rows, timed now on this machine. */
async function printAgainstReference(
  databaseUrl: string,
  productId: string,
  rates: Record<string, number>,
): Promise<void> {
  const reference = await plainCopyReference(databaseUrl, productId);
  const rate = Math.round(reference.rowsPerSecond);
  console.log(
    `reference: plain COPY of the same ${reference.rows} rows (${reference.megabytes.toFixed(1)} MB) ` +
      `into an unindexed temp table: ${rate} rows/s ` +
      `(median of ${reference.runsMs.map((ms) => ms.toFixed(0)).join(' / ')} ms)`,
  );
  for (const [label, findingsPerSecond] of Object.entries(rates)) {
    console.log(
      `ratio ${label}: ${findingsPerSecond} / ${rate} = ${(findingsPerSecond / rate).toFixed(3)}`,
    );
  }
}

async function main(): Promise<void> {
  const stack = stackEnv();
  if (process.env.BENCH_FROM_SOURCE !== '1') {
    execFileSync('bash', ['tools/build.sh', 'findings-service'], { cwd: ROOT, stdio: 'ignore' });
  }
  const databaseUrl = await freshDatabase(stack.STACK_PG_URL, 'bench_ingest');
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'ingest-bench-'));
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: stack.REDIS_URL,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_FILE_SINK_ENABLED: 'false',
    LOCAL_ADMIN_EMAIL: ADMIN.email,
    LOCAL_ADMIN_PASSWORD: ADMIN.password,
    COOKIE_SECURE: 'false',
    RATE_LIMIT_API: '100000',
    RATE_LIMIT_API_USER: '100000',
    REPORT_STORAGE_DIR: join(dir, 'reports'),
    QUEUE_PREFIX: `bench${Date.now()}`,
  };
  const api = boot('main', { ...env, METRICS_PORT: '0' });
  let worker: ChildProcess | undefined;
  try {
    const file = join(dir, 'bench-100k.sarif');
    // BENCH_AXIS_VALUES=1: results carry a package, host and CVE (the roll-up counts' keys).
    const generating = writeSarif(file, RESULTS, {
      axisValues: process.env.BENCH_AXIS_VALUES === '1',
    });
    await waitForApi();
    await applyRollupTriggerSwitch(databaseUrl);
    worker = boot(
      'worker',
      { ...env, METRICS_PORT: '0' },
      process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean),
    );
    await generating;
    console.log(
      `generated ${file}: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${RESULTS} results`,
    );
    const login = await http('POST', '/api/v1/auth/local/login', undefined, {
      login: ADMIN.email,
      password: ADMIN.password,
    });
    const token = String(login.json.data?.access_token);
    const project = await http('POST', '/api/v1/projects', token, { name: `bench-${Date.now()}` });
    const projectId = String(project.json.data?.id);
    const product = await http('POST', `/api/v1/projects/${projectId}/products`, token, {
      name: 'bench',
    });
    const productId = String(product.json.data?.id);
    await new Promise((r) => setTimeout(r, 3_000)); // worker connected and idle

    const w = worker;
    if (process.env.BENCH_COLD !== '1') {
      // A long-running worker has a warm parser thread (JIT, heap sizing); so does this one:
      // one small report into another product first, not counted.
      const small = join(dir, 'warm-up.sarif');
      await writeSarif(small, 5_000, { seed: 3 });
      const warm = await http('POST', `/api/v1/projects/${projectId}/products`, token, {
        name: 'bench-warm-up',
      });
      await measured('warm-up (not a result)', w, api, () =>
        timedIngest(token, String(warm.json.data?.id), small),
      );
    }
    const first = await measured('first ingest', w, api, () => timedIngest(token, productId, file));
    const duplicate = await measured('duplicate re-ingest', w, api, () =>
      timedIngest(token, productId, file),
    );
    await printAgainstReference(databaseUrl, productId, {
      'first ingest': first,
      'duplicate re-ingest': duplicate,
    });

    if (process.env.BENCH_SKIP_LARGE !== '1') {
      const large = join(dir, 'bench-100mb.sarif');
      await writeSarif(large, 130_000, { contextLines: 5, seed: 7 });
      console.log(`generated ${large}: ${(statSync(large).size / 1e6).toFixed(1)} MB`);
      const other = await http('POST', `/api/v1/projects/${projectId}/products`, token, {
        name: 'bench-large',
      });
      await measured('100 MB file', w, api, () =>
        timedIngest(token, String(other.json.data?.id), large),
      );
    }
  } finally {
    worker?.kill('SIGTERM');
    api.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * The fixed cost of one authenticated request (issue 34, not part of `npm test`):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register \
 *     tools/bench/request-cost/request-cost-bench.ts
 *
 * Boots the findings API in this process on a scratch database (as the query bench does: rate
 * limits counted in the stack's Redis, log level `error`, no trace exporter), signs in as the
 * local administrator and sends `GET /api/v1/auth/me` — authentication, the user's look-up,
 * the rate limit, tracing, logging, the envelope, no findings query — from a client in a
 * process of its own (keep-alive `node:http`), N requests one after the other and then with C
 * concurrent clients. Prints p50/p95, requests/s and the server's CPU per request (this
 * process's user + system time over the series, the client's not in it), and the server's CPU
 * while idle. Env: BENCH_REQUESTS (2000 per series), BENCH_CLIENTS (1,16), BENCH_PATH
 * (/api/v1/auth/me). A profile: `node --cpu-prof --cpu-prof-dir=DIR -r @swc-node/register ...`.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { Agent, get } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import {
  findingsBenchVars,
  listenOnLoopback,
  localLogin,
  percentile,
  scratchDatabase,
} from '../support/findings-bench-app';

const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 2000);
const CLIENTS = (process.env['BENCH_CLIENTS'] ?? '1,16').split(',').map(Number);
const PATH = process.env['BENCH_PATH'] ?? '/api/v1/auth/me';

interface Series {
  p50: number;
  p95: number;
  perSecond: number;
}

/** The client side (a child process): `client URL TOKEN N C`, prints the series as JSON. */
async function client(url: string, token: string, n: number, c: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: c });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      }).on('error', reject);
    });
  const times: number[] = [];
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (sent++ < n) times.push(await once());
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  const series: Series = {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    perSecond: n / seconds,
  };
  process.stdout.write(JSON.stringify(series));
}

async function series(url: string, token: string, n: number, c: number) {
  const cpu = process.cpuUsage();
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...process.execArgv.filter((a) => !a.startsWith('--cpu-prof')),
    __filename,
    'client',
    url,
    token,
    String(n),
    String(c),
  ]);
  const used = process.cpuUsage(cpu);
  return { ...(JSON.parse(stdout) as Series), cpuUs: (used.user + used.system) / n };
}

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_request_cost');
  const app = await createFindingsApp(loadFindingsConfig(findingsBenchVars(db), 'api'));
  try {
    const base = await listenOnLoopback(app);
    const token = await localLogin(base);
    const url = `${base}${PATH}`;
    await series(url, token, 500, 4); // warm-up
    const idle = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idleUsed = process.cpuUsage(idle);
    console.log(
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}; server CPU while idle: ${((idleUsed.user + idleUsed.system) / 5000).toFixed(1)} ms/s`,
    );
    console.log('| request | clients | requests/s | p50 ms | p95 ms | server CPU / request |');
    console.log('| ------- | ------- | ---------- | ------ | ------ | -------------------- |');
    for (const c of CLIENTS) {
      const r = await series(url, token, REQUESTS, c);
      console.log(
        `| GET ${PATH} | ${c} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.cpuUs.toFixed(0)} µs |`,
      );
    }
    console.log(
      `load at the end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await app.close();
    await db.drop();
  }
}

const [mode, ...args] = process.argv.slice(2);
const run =
  mode === 'client'
    ? client(args[0] ?? '', args[1] ?? '', Number(args[2]), Number(args[3]))
    : main();
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

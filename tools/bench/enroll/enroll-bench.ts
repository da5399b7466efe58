/**
 * Enrollment at fleet scale (issue 34, not part of `npm test`): `POST /api/v1/enroll/nonce` +
 * `POST /api/v1/enroll` per device, with 16 and 64 concurrent clients, EC P-256 and RSA-2048
 * CSRs made before the clock starts, against the certificate service in a process of its own
 * (server-process.ts: fresh database, rate limits counted in Redis, access log at info).
 *
 * In-run reference: the raw CSR verification of the same CSRs in this process, with the code
 * path the service runs (`parseCsr` of the PEM: DER parse + signature check + key hash), one
 * core. Ratio = devices/s ÷ CSRs verified/s. Printed beside: server CPU per device (user +
 * system from /proc, PostgreSQL and Redis not in it) and the ratio by CPU time (devices per
 * server-core second ÷ CSRs verified per CPU second), the CPU of the PostgreSQL backends
 * serving the bench's database (/proc, the stack's server on this machine), the clients' CPU,
 * the pair's latency.
 *
 * Env: BENCH_N (devices per series, 2000), BENCH_CLIENTS (16,64), BENCH_KEYS (ec,rsa),
 * BENCH_WARMUP (300 devices before each series, untimed), BENCH_RSA_KEYS (64 RSA keys, each
 * signing N/64 CSRs of distinct subjects — 2 000+ RSA keys would take minutes to make),
 * BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_LOG (the server's
 * log file, /dev/null), BENCH_NO_REDIS=1 (counters in the server's memory), BENCH_KEEP_DB=1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPair } from 'node:crypto';
import { Agent, request } from 'node:http';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { parseCsr, toPem } from '@platform/pki';
import { ecKeyPair, makeCsr, type TestKeyPair } from '@platform/pki/testing';
import { ownCpuSeconds, treeCpuSeconds } from '../support/process-cpu';
import { Client } from 'pg';
import { adminQuery, stackEnv, stackUrl } from '../support/stack-db';

const N = Number(process.env['BENCH_N'] ?? 2000);
const CLIENTS = (process.env['BENCH_CLIENTS'] ?? '16,64').split(',').map(Number);
const KEYS = (process.env['BENCH_KEYS'] ?? 'ec,rsa').split(',') as Array<'ec' | 'rsa'>;
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 300);
const RSA_KEYS = Number(process.env['BENCH_RSA_KEYS'] ?? 64);
const ROOT = join(__dirname, '../../..');

/** A JSON POST over a keep-alive agent (lighter on the bench's core than `fetch`). */
function post(
  agent: Agent,
  port: number,
  path: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
            });
          } catch (error) {
            reject(error as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function startServer(databaseUrl: string, redisUrl: string | undefined) {
  const nodeArgs = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '-r', '@swc-node/register', join(__dirname, 'server-process.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        BENCH_DATABASE_URL: databaseUrl,
        ...(redisUrl ? { BENCH_REDIS_URL: redisUrl } : {}),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('{"port"')) resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return { child, port };
}

const generateKeyPairAsync = promisify(generateKeyPair);

/** PEM CSRs of distinct subjects: EC keys one per CSR, RSA keys from a pool of RSA_KEYS. */
async function makeCsrs(kind: 'ec' | 'rsa', count: number, tag: string): Promise<string[]> {
  let keyOf: (i: number) => TestKeyPair;
  if (kind === 'ec') {
    keyOf = () => ecKeyPair();
  } else {
    const keys = await Promise.all(
      Array.from({ length: RSA_KEYS }, () => generateKeyPairAsync('rsa', { modulusLength: 2048 })),
    );
    keyOf = (i) => keys[i % keys.length]!;
  }
  return Array.from({ length: count }, (_, i) =>
    toPem('CERTIFICATE REQUEST', makeCsr({ keyPair: keyOf(i), commonName: `${tag}-${i}` })),
  );
}

/**
 * CSRs verified per second on one core — the service's `parseCsr` over the same PEMs — by the
 * wall clock and by this process's CPU time (the median of three rounds each).
 */
function verifyRate(csrs: string[]): { wall: number; cpu: number } {
  for (const csr of csrs.slice(0, 100)) parseCsr(csr);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let round = 0; round < 3; round++) {
    const cpu0 = ownCpuSeconds();
    const t0 = performance.now();
    for (const csr of csrs) parseCsr(csr);
    walls.push(csrs.length / ((performance.now() - t0) / 1000));
    cpus.push(csrs.length / (ownCpuSeconds() - cpu0));
  }
  const median = (v: number[]) => v.sort((a, b) => a - b)[1]!;
  return { wall: median(walls), cpu: median(cpus) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/**
 * CPU seconds of the PostgreSQL backends serving the bench's database (from /proc, when the
 * stack's server runs on this machine): pid → seconds.
 */
async function backendCpu(admin: Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1`,
    [database],
  );
  return new Map(rows.map((r) => [r.pid, treeCpuSeconds(r.pid)]));
}

/** CPU seconds the backends present at `before` (and those started since) used until now. */
function cpuSince(before: Map<number, number>, now: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of now) total += seconds - (before.get(pid) ?? 0);
  return total;
}

let serialCounter = 0;

/** nonce + enroll for every CSR with `clients` in flight; latency of each pair in ms. */
async function enrollAll(port: number, csrs: string[], clients: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < csrs.length) {
        const csr = csrs[next++]!;
        const started = performance.now();
        const nonce = await post(agent, port, '/api/v1/enroll/nonce', {});
        if (nonce.status !== 201)
          throw new Error(`nonce: ${nonce.status} ${JSON.stringify(nonce.json)}`);
        const serial = `ENR-${String(++serialCounter).padStart(7, '0')}`;
        const res = await post(agent, port, '/api/v1/enroll', {
          csr,
          serial,
          nonce: nonce.json['nonce'],
          agent_version: '3.4.0',
          platform: 'linux',
          hostname: serial.toLowerCase(),
        });
        if (res.status !== 201)
          throw new Error(`enroll: ${res.status} ${JSON.stringify(res.json)}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  agent.destroy();
  return latencies;
}

interface Row {
  kind: string;
  clients: number;
  rate: number;
  verify: number;
  verifyCpu: number;
  serverMs: number;
  databaseMs: number;
  clientMs: number;
  p50: number;
  p95: number;
}

/**
 * The ratio by CPU time, steadier than the wall clock's on a shared machine: devices one
 * server core enrolls per second (1 ÷ server CPU per device) ÷ CSRs one core verifies per
 * second (by CPU time). PostgreSQL's and Redis' CPU is not in it.
 */
function cpuRatio(r: Row): number {
  return 1000 / r.serverMs / r.verifyCpu;
}

async function main(): Promise<void> {
  const env = stackEnv();
  process.env['STACK_PG_URL'] ??= env['STACK_PG_URL'];
  const redisUrl = process.env['BENCH_NO_REDIS'] ? undefined : `${env['REDIS_URL']}/5`;
  const dbName = `bench_enroll_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  const { child, port } = await startServer(url.toString(), redisUrl);
  const pid = child.pid!;
  const rows: Row[] = [];
  const admin = new Client({ connectionString: stackUrl() });
  await admin.connect();
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ` +
        `${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}; N=${N} per series, clients ${CLIENTS.join('/')}, ` +
        `rate limits in ${redisUrl ? 'Redis' : 'process memory'}`,
    );
    for (const kind of KEYS) {
      const t0 = performance.now();
      const all = await makeCsrs(kind, (N + WARMUP) * CLIENTS.length, kind.toUpperCase());
      const { wall: verify, cpu: verifyCpu } = verifyRate(all.slice(0, Math.min(all.length, 2000)));
      console.log(
        `\n${kind === 'ec' ? 'EC P-256' : 'RSA-2048'}: ${all.length} CSRs made in ` +
          `${((performance.now() - t0) / 1000).toFixed(1)} s; raw CSR verification (parseCsr, ` +
          `one core): ${verify.toFixed(0)}/s (${(1e6 / verify).toFixed(0)} µs each; by CPU time ` +
          `${verifyCpu.toFixed(0)}/s, ${(1e6 / verifyCpu).toFixed(0)} µs)`,
      );
      for (const [index, clients] of CLIENTS.entries()) {
        const slice = all.slice(index * (N + WARMUP), (index + 1) * (N + WARMUP));
        await enrollAll(port, slice.slice(0, WARMUP), clients);
        const db0 = await backendCpu(admin, dbName);
        const server0 = treeCpuSeconds(pid);
        const own0 = ownCpuSeconds();
        const started = performance.now();
        const latencies = await enrollAll(port, slice.slice(WARMUP), clients);
        const seconds = (performance.now() - started) / 1000;
        const serverMs = ((treeCpuSeconds(pid) - server0) / N) * 1000;
        const clientMs = ((ownCpuSeconds() - own0) / N) * 1000;
        const databaseMs = (cpuSince(db0, await backendCpu(admin, dbName)) / N) * 1000;
        latencies.sort((a, b) => a - b);
        const row: Row = {
          kind,
          clients,
          rate: N / seconds,
          verify,
          verifyCpu,
          serverMs,
          databaseMs,
          clientMs,
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
        };
        rows.push(row);
        console.log(
          `  ${clients} clients: ${N} devices in ${seconds.toFixed(2)} s = ${row.rate.toFixed(0)} ` +
            `devices/s, ratio ${(row.rate / verify).toFixed(3)}; server CPU ${serverMs.toFixed(2)} ` +
            `ms/device (CPU ratio ${cpuRatio(row).toFixed(3)}), ` +
            `PostgreSQL ${databaseMs.toFixed(2)} ms/device, clients ${clientMs.toFixed(2)} ms/device; pair p50 ${row.p50.toFixed(1)} ` +
            `/ p95 ${row.p95.toFixed(1)} ms; load ${loadavg()[0]!.toFixed(2)}`,
        );
      }
    }
    console.log(
      '\n| CSR | clients | devices/s | raw verify/s | ratio | server CPU/device | CPU ratio | PostgreSQL CPU/device | pair p50 / p95 |',
    );
    console.log(
      '| --- | ------- | --------- | ------------ | ----- | ----------------- | --------- | --------------------- | -------------- |',
    );
    for (const r of rows) {
      console.log(
        `| ${r.kind === 'ec' ? 'EC P-256' : 'RSA-2048'} | ${r.clients} | ${r.rate.toFixed(0)} | ` +
          `${r.verify.toFixed(0)} | ${(r.rate / r.verify).toFixed(3)} | ${r.serverMs.toFixed(2)} ms | ` +
          `${cpuRatio(r).toFixed(3)} | ${r.databaseMs.toFixed(2)} ms | ` +
          `${r.p50.toFixed(1)} / ${r.p95.toFixed(1)} ms |`,
      );
    }
    console.log(
      `load at the end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await admin.end();
    child.stdin!.end();
    await new Promise((resolve) => child.once('exit', resolve));
    if (!process.env['BENCH_KEEP_DB'])
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

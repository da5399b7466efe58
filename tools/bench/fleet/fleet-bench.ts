/**
 * Fleet benchmark (not part of `npm test`): 1 000 device agents enroll and check in against the
 * certificate service, beside the service's own enrollment figure in the same sitting.
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/fleet/fleet-bench.ts
 *
 * The service runs in a process of its own (server-process.ts, booted as tools/bench/issue
 * boots it) on a fresh database, so its CPU time is read from /proc/<pid>/stat apart from the
 * agents'. The agents are in-process instances of the agent itself: each is the agent's own
 * `main()` (apps/device-agent/src/main.ts, what `certsvc-agent` runs) with its own state
 * directory, called with `enroll` and `run --once` — the real key generation, CSR, enrollment,
 * polling, download, CRL check, check-in and network profile code, without 1 000 Node start-ups
 * (a process each would measure process start-up and 1 000 × ~50 MB of memory, not the fleet).
 *
 * 1. In-run reference (the service's own enrollment bench, tools/bench/issue): BENCH_N CSRs made
 *    beforehand, `POST /enroll/nonce` + `POST /enroll` with 16 in flight: devices/s.
 * 2. Fleet enrollment: BENCH_N agents `enroll` (16 at a time); an administrator loop approves
 *    the pending requests every 200 ms (`POST /requests/approve`, up to 500 at a time): agents
 *    enrolled end to end per second (key, CSR, nonce, enroll, polling, approval, download, first
 *    check-in) and server CPU per enrolled agent.
 * 3. Check-in: every agent runs BENCH_ROUNDS `run --once` passes, started at a steady
 *    BENCH_RATE passes/s (open loop): pass latency and `POST .../checkin` latency percentiles,
 *    and the service's CPU time over the phase.
 *
 *    server CPU per agent per hour = (server CPU seconds over the phase / passes) × (3600 / interval)
 *
 *    with interval = BENCH_INTERVAL (3600 s: the agent's default `--interval`, one pass an hour).
 *    A pass at 1 000 agents an hour is 0.28 passes/s; the bench runs them faster (BENCH_RATE) to
 *    measure in a minute — the CPU per pass does not depend on the rate, the latency does (a
 *    rate of R passes/s is the load of R × interval agents).
 * Env: BENCH_N (1000), BENCH_ROUNDS (1), BENCH_RATE (10 passes/s), BENCH_INTERVAL (3600),
 * BENCH_KEEP_DB=1 keeps the database.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { toPem } from '@platform/pki';
import { ecKeyPair, makeCsr } from '@platform/pki/testing';
import { main as agentMain } from '../../../apps/device-agent/src/main';
import { pool, post } from '../support/http-client';
import { treeCpuSeconds, ownCpuSeconds } from '../support/process-cpu';
import { adminQuery, stackUrl } from '../support/stack-db';

const N = Number(process.env['BENCH_N'] ?? 1000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 1);
const RATE = Number(process.env['BENCH_RATE'] ?? 10);
const INTERVAL = Number(process.env['BENCH_INTERVAL'] ?? 3600);
const CONCURRENCY = 16;
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };
const ROOT = join(__dirname, '../../..');

/**
 * Latency (ms) of every HTTP call the agents make, by route (ids replaced by `:id`), until the
 * answer's headers: the agent's own `fetch` calls, wrapped; the bench's calls (reference,
 * approver) run outside `inAgent` and are not counted.
 */
const calls = new Map<string, number[]>();
const inAgent = new AsyncLocalStorage<true>();
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
  if (!inAgent.getStore()) return realFetch(input, init);
  const started = performance.now();
  const res = await realFetch(input, init);
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const route = `${init?.method ?? 'GET'} ${url.pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id')}`;
  (calls.get(route) ?? calls.set(route, []).get(route)!).push(performance.now() - started);
  return res;
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function startServer(databaseUrl: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'server-process.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        BENCH_DATABASE_URL: databaseUrl,
        BENCH_MAX_DEVICES: String(2 * N + 10),
        BENCH_ADMIN_EMAIL: ADMIN.email,
        BENCH_ADMIN_PASSWORD: ADMIN.password,
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
  return { child, base: `http://127.0.0.1:${port}` };
}

/** The service's own enrollment figure: pre-made CSRs, nonce + enroll, 16 in flight. */
async function referenceEnrollment(base: string, pid: number): Promise<number> {
  const csrs = Array.from({ length: N }, (_, i) =>
    toPem('CERTIFICATE REQUEST', makeCsr({ keyPair: ecKeyPair(), commonName: `REF-${i}` })),
  );
  const cpu0 = treeCpuSeconds(pid);
  const t0 = performance.now();
  await pool([...csrs.keys()], CONCURRENCY, async (i) => {
    const nonce = await post<{ nonce: string }>(base, '/api/v1/enroll/nonce', {});
    const res = await post(base, '/api/v1/enroll', {
      csr: csrs[i],
      serial: `REF-${String(i).padStart(6, '0')}`,
      nonce: nonce.body.nonce,
    });
    if (res.status !== 201) throw new Error(`reference enroll ${i}: ${res.status}`);
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = treeCpuSeconds(pid) - cpu0;
  console.log(
    `reference (the service's enrollment bench): ${N} devices in ${seconds.toFixed(1)} s = ` +
      `${(N / seconds).toFixed(0)} devices/s; server CPU ${((cpu / N) * 1000).toFixed(2)} ms per enrollment`,
  );
  return N / seconds;
}

const agentIo = () => ({
  stdout: () => undefined,
  stderr: (text: string) => process.stderr.write(`agent: ${text}`),
  env: { CERTSVC_AGENT_BACKOFF_BASE_MS: '250', CERTSVC_AGENT_BACKOFF_CAP_MS: '1000' },
});

/** Approves pending requests every 200 ms until `stop()`. */
function approver(base: string, databaseUrl: string): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const login = await post<{ access_token: string }>(base, '/api/v1/auth/local/login', ADMIN);
    while (running) {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM certificate_requests WHERE status = 'pending' LIMIT 500`,
      );
      if (rows.length > 0) {
        const res = await post(
          base,
          '/api/v1/requests/approve',
          { request_ids: rows.map((r) => r.id) },
          login.body.access_token,
        );
        if (res.status !== 200) throw new Error(`approve: ${res.status}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await db.end();
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

function printCalls(title: string, perUnit: number, unit: string): void {
  console.log(`  ${title}`);
  for (const [route, values] of [...calls].sort()) {
    console.log(
      `    ${route.padEnd(48)} ${(values.length / perUnit).toFixed(2).padStart(6)} per ${unit}  ` +
        `p50 ${ms(percentile(values, 50))}  p95 ${ms(percentile(values, 95))}`,
    );
  }
}

async function main(): Promise<void> {
  const dbName = `bench_fleet_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const states = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const { child, base } = await startServer(databaseUrl);
  const pid = child.pid!;
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ` +
        `${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}; ` +
        `N=${N}, rounds=${ROUNDS}, rate=${RATE}/s, interval=${INTERVAL} s`,
    );
    const referenceRate = await referenceEnrollment(base, pid);

    calls.clear();
    const approving = approver(base, databaseUrl);
    const serials = Array.from({ length: N }, (_, i) => `FLEET-${String(i).padStart(6, '0')}`);
    let cpu0 = treeCpuSeconds(pid);
    let t0 = performance.now();
    await pool(serials, CONCURRENCY, async (serial) => {
      const argv = ['enroll', '--server', base, '--serial', serial];
      const state = join(states, serial);
      const code = await inAgent.run(true, () =>
        agentMain([...argv, '--state-dir', state], agentIo()),
      );
      if (code !== 0) throw new Error(`enroll ${serial}: exit ${code}`);
    });
    await approving.stop();
    const enrollSeconds = (performance.now() - t0) / 1000;
    const enrollCpu = treeCpuSeconds(pid) - cpu0;
    console.log(
      `\nfleet enrollment: ${N} agents enrolled end to end in ${enrollSeconds.toFixed(1)} s = ` +
        `${(N / enrollSeconds).toFixed(0)} agents/s (ratio to the reference: ` +
        `${(N / enrollSeconds / referenceRate).toFixed(3)}); server CPU ${((enrollCpu / N) * 1000).toFixed(2)} ms per agent`,
    );
    printCalls('HTTP calls of the enrollment (latency as the agent saw it):', N, 'agent');

    calls.clear();
    const passes: number[] = [];
    const total = N * ROUNDS;
    cpu0 = treeCpuSeconds(pid);
    const own0 = ownCpuSeconds();
    t0 = performance.now();
    await Promise.all(
      Array.from({ length: total }, async (_, k) => {
        const due = t0 + (k / RATE) * 1000;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        const started = performance.now();
        const dir = join(states, serials[k % N]!);
        const code = await inAgent.run(true, () =>
          agentMain(['run', '--once', '--state-dir', dir], agentIo()),
        );
        if (code !== 0) throw new Error(`run --once ${serials[k % N]}: exit ${code}`);
        passes.push(performance.now() - started);
      }),
    );
    const phaseSeconds = (performance.now() - t0) / 1000;
    const serverCpu = treeCpuSeconds(pid) - cpu0;
    const clientCpu = ownCpuSeconds() - own0;
    const checkins = [...calls].find(([route]) => route.endsWith('/checkin'))?.[1] ?? [];
    const perPass = serverCpu / total;
    const perAgentHour = perPass * (3600 / INTERVAL);
    console.log(
      `\ncheck-in: ${total} passes (${ROUNDS} per agent) in ${phaseSeconds.toFixed(1)} s ` +
        `(${(total / phaseSeconds).toFixed(1)}/s, asked ${RATE}/s: the load of ${RATE * INTERVAL} agents at --interval ${INTERVAL})`,
    );
    console.log(
      `  pass (run --once) latency: p50 ${ms(percentile(passes, 50))}  p95 ${ms(percentile(passes, 95))}  ` +
        `p99 ${ms(percentile(passes, 99))}  max ${ms(Math.max(...passes))}`,
    );
    console.log(
      `  POST checkin latency:      p50 ${ms(percentile(checkins, 50))}  p95 ${ms(percentile(checkins, 95))}  ` +
        `p99 ${ms(percentile(checkins, 99))}`,
    );
    printCalls('HTTP calls of a pass:', total, 'pass');
    console.log(
      `  server CPU ${serverCpu.toFixed(2)} s over the phase = ${(perPass * 1000).toFixed(2)} ms per pass; ` +
        `agents' side (this process) ${((clientCpu / total) * 1000).toFixed(2)} ms per pass`,
    );
    console.log(
      `  server CPU per agent per hour = ${(perPass * 1000).toFixed(2)} ms × ${(3600 / INTERVAL).toFixed(2)} passes/h = ` +
        `${(perAgentHour * 1000).toFixed(2)} ms; one core: ${Math.floor(3600 / perAgentHour).toLocaleString('en')} agents`,
    );
    console.log(
      `load after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    child.stdin?.end();
    await new Promise((resolve) => child.on('exit', resolve));
    rmSync(states, { recursive: true, force: true });
    if (process.env['BENCH_KEEP_DB'] !== '1') {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * Plugin sandbox benchmark (tier 1; not part of `npm test`):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/plugins/plugin-bench.ts
 *
 * Builds the SDK's example enricher (libs/plugin-sdk/examples/zone-enricher) with the build
 * command (cached by content hash, like the tests) and runs it through a WasmPluginHost:
 *   - cold load: transpile + memory cap + compile + first warm thread, then the first call;
 *   - warm invoke p50/p95: sequential `enrich` calls on warm threads, all of one event (its
 *     instance reused: the warm-call reference) and each a new event (a fresh, never-used
 *     instance from the threads' spare pools, PLUGIN_RUNNER_SPARE_INSTANCES), printed side by
 *     side with the fresh instance's cost (the difference) — back to back, and with
 *     BENCH_PACE_MS between events (the spare pools refill in between), the latter also beside
 *     calls of one event at the same pace (the like-for-like reference);
 *   - host-call round trip: `enrich` of one event with and without one `is-cve-known` call
 *     (difference of the p50s);
 *   - enrichment throughput: BENCH_FINDINGS (10 000) findings through the per-plugin limit
 *     (PLUGIN_RUNNER_PER_PLUGIN_LIMIT, 4) as one event (one report: an instance per thread
 *     serves the event), and BENCH_EVENT_EACH (10 000) findings with every finding its own
 *     event (a fresh instance each; target ≤ 30 s).
 * In-run reference: the same worker bridge (SandboxThread, the same thread script and
 * message path) running a bare JavaScript function in place of the component — invoke
 * p50/p95, a host call's round trip, and the throughput of the same calls.
 * Env: BENCH_FINDINGS (10000), BENCH_EVENT_EACH (10000), BENCH_WARM_CALLS (500),
 * BENCH_SPARE_INSTANCES (the runner's default, 2), BENCH_PACE_MS (20).
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifactDigest } from '@platform/plugin-sdk';
import { buildPlugin, componentCacheDir, examplePluginDir } from '@platform/plugin-sdk/build';
import pino from 'pino';
import { DEFAULT_SANDBOX_LIMITS } from '../../../apps/plugin-runner/src/app/config/sandbox.config';
import type {
  HostCallBroker,
  InvocationRequest,
  LoadedArtifact,
} from '../../../apps/plugin-runner/src/plugin-host/plugin-host';
import type { CompiledComponent } from '../../../apps/plugin-runner/src/wasm/compile/component-compiler';
import {
  type HostCallHandler,
  SandboxThread,
} from '../../../apps/plugin-runner/src/wasm/sandbox/sandbox-thread';
import { WasmPluginHost } from '../../../apps/plugin-runner/src/wasm/wasm-plugin-host';

const FINDINGS = Number(process.env['BENCH_FINDINGS'] ?? 10_000);
const WARM_CALLS = Number(process.env['BENCH_WARM_CALLS'] ?? 500);
/** Findings of the "an event each" pass (10 000 events: the issue-34 target is ≤ 30 s). */
const EVENT_EACH = Number(process.env['BENCH_EVENT_EACH'] ?? 10_000);
/** Gap between the events of the paced fresh-instance figure. */
const PACE_MS = Number(process.env['BENCH_PACE_MS'] ?? 20);
const ZONES = [
  { cidr: '10.1.0.0/16', zone: 'office' },
  { cidr: '10.2.0.0/16', zone: 'datacenter' },
  { cidr: '192.168.0.0/16', zone: 'lab' },
];

const broker: HostCallBroker = {
  getSecret: () => Promise.resolve(undefined),
  getProjectSecret: () => Promise.resolve(undefined),
  sendEmail: () => Promise.resolve(),
  isCveKnown: (_context, ids) => Promise.resolve(ids.filter((id) => id.endsWith('1'))),
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

function finding(i: number, cve = false) {
  return {
    id: `f-${i}`,
    severity: 'HIGH',
    rule: `rule-${i % 50}`,
    description: 'bench finding',
    scanner: 'bench',
    status: 'open',
    ip: `10.${1 + (i % 3)}.${(i >> 8) & 255}.${i & 255}`,
    ...(cve ? { cve: `CVE-2024-${1000 + (i % 9000)}` } : {}),
  };
}

function call(artifact: LoadedArtifact, i: number, eventId: string, checkCves = false) {
  const request: InvocationRequest = {
    pluginId: artifact.pluginId,
    versionDigest: artifact.versionDigest,
    projectId: 'bench-project',
    eventId,
    capability: 'finding_enricher',
    operation: 'enrich',
    payload: { finding: finding(i, checkCves) },
    settings: { zones: ZONES, check_cves: checkCves },
  };
  return request;
}

async function sequential(count: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

/** CPU time of the whole process (every thread), ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The CPU time the last `throughput` took (all threads: a figure the load moves less). */
let lastCpuMs = 0;

/** `count` calls with at most `parallel` in flight; wall clock in ms. */
async function throughput(
  count: number,
  parallel: number,
  run: (i: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  const cpuStarted = cpuMs();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await run(next++);
    }),
  );
  lastCpuMs = cpuMs() - cpuStarted;
  return performance.now() - started;
}

const cpuPerCall = (count: number) =>
  `CPU ${(lastCpuMs / 1000).toFixed(2)} s, ${(lastCpuMs / count).toFixed(2)} ms per call`;

/**
 * The reference: a bare function in place of the component, run by the same SandboxThread
 * (thread script, invoke message, host-call bridge) with no WebAssembly at all.
 */
function referenceThread(): SandboxThread {
  const glue = `
    export function instantiate(getCoreModule, imports) {
      const host = imports['findsvc:plugin/host'];
      return {
        findingEnricher: {
          enrich(ctx, finding) {
            const calls = Number(finding.description) || 0;
            for (let i = 0; i < calls; i++) host.isCveKnown(['CVE-2024-0001']);
            return [{ key: 'zone', value: 'office' }];
          },
        },
      };
    }`;
  const compiled: CompiledComponent = {
    glue,
    modules: [],
    memories: [],
    exports: [],
    compileMs: 0,
    transpiledFrom: 'jco',
  };
  return new SandboxThread(compiled, {
    logLinesPerCall: 100,
    heapLimitMb: 128,
    eventInstanceIdleMs: 2_000,
    spareInstances: DEFAULT_SANDBOX_LIMITS.spareInstances,
  });
}

const referenceHandler: HostCallHandler = {
  call: () => Promise.resolve({ tag: 'ok', val: ['CVE-2024-0001'] }),
  log: () => undefined,
};

async function referenceFigures(perPlugin: number) {
  const threads = Array.from({ length: perPlugin }, () => referenceThread());
  await Promise.all(threads.map((t) => t.ready));
  const invokeOn = (thread: SandboxThread, i: number, hostCalls = 0) =>
    thread.invoke(
      {
        eventKey: `e-${i}`,
        exportName: 'findingEnricher',
        operation: 'enrich',
        args: [{ eventId: `e-${i}`, settingsJson: '{}' }, { description: String(hostCalls) }],
        deadlineMs: 10_000,
        hostCallTimeoutMs: 5_000,
      },
      referenceHandler,
    );
  await sequential(100, (i) => invokeOn(threads[0], i)); // warm-up
  const invoke = stats(await sequential(WARM_CALLS, (i) => invokeOn(threads[0], i)));
  const HOST_CALLS = 1000;
  const started = performance.now();
  await invokeOn(threads[0], 0, HOST_CALLS);
  const withCalls = performance.now() - started;
  const hostCallMs = (withCalls - invoke.p50) / HOST_CALLS;
  const free = [...threads];
  const waiting: Array<(t: SandboxThread) => void> = [];
  const take = () =>
    free.length > 0
      ? Promise.resolve(free.pop() as SandboxThread)
      : new Promise<SandboxThread>((resolve) => waiting.push(resolve));
  const give = (t: SandboxThread) => {
    const w = waiting.shift();
    if (w) w(t);
    else free.push(t);
  };
  const wall = await throughput(FINDINGS, perPlugin, async (i) => {
    const thread = await take();
    try {
      await invokeOn(thread, i);
    } finally {
      give(thread);
    }
  });
  const cpu = lastCpuMs;
  await Promise.all(threads.map((t) => t.terminate()));
  return { invoke, hostCallMs, wall, cpu };
}

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus()[0]?.model ?? 'cpu'} x${availableParallelism()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const out = await mkdtemp(join(tmpdir(), 'plugin-bench-'));
  const built = await buildPlugin({
    sourceDir: examplePluginDir('zone-enricher'),
    outDir: out,
    cacheDir: componentCacheDir(process.env),
  }).finally(() => rm(out, { recursive: true, force: true }));
  console.log(
    `component: ${(built.component.length / 2 ** 20).toFixed(1)} MiB, ${built.cached ? 'from the build cache' : `built in ${built.buildMs} ms`}`,
  );
  const limits = {
    ...DEFAULT_SANDBOX_LIMITS,
    spareInstances: Number(
      process.env['BENCH_SPARE_INSTANCES'] ?? DEFAULT_SANDBOX_LIMITS.spareInstances,
    ),
  };
  console.log(`spare instances per thread: ${limits.spareInstances}`);
  const host = new WasmPluginHost({
    limits,
    broker,
    egress: { request: () => Promise.reject(new Error('no egress in the bench')) },
    logger: pino({ level: 'warn' }),
  });
  const artifact: LoadedArtifact = {
    pluginId: 'zone-enricher',
    manifest: built.manifest,
    versionDigest: artifactDigest(built.component),
    artifact: built.component,
    permittedHosts: [],
    source: { signed: true, allowsNative: false },
  };
  const expectOk = async (request: InvocationRequest) => {
    const result = await host.invoke(request);
    if (!result.ok) throw new Error(`enrich failed: ${JSON.stringify(result.error)}`);
  };

  const rate = (wall: number) => `${Math.round((FINDINGS / wall) * 1000)} findings/s`;
  // The reference first: the same bridge with a bare function (no WebAssembly).
  const reference = await referenceFigures(limits.perPluginLimit);
  console.log(
    `reference (bare function through the same worker bridge): invoke p50 ${ms(reference.invoke.p50)}, p95 ${ms(reference.invoke.p95)}; host call ${(reference.hostCallMs * 1000).toFixed(1)} µs; ${FINDINGS} calls, ${limits.perPluginLimit} at once: ${(reference.wall / 1000).toFixed(2)} s (${rate(reference.wall)}; CPU ${(reference.cpu / FINDINGS).toFixed(3)} ms per call)`,
  );
  try {
    let started = performance.now();
    await host.load(artifact);
    const loadMs = performance.now() - started;
    started = performance.now();
    await expectOk(call(artifact, 0, 'cold'));
    const firstCallMs = performance.now() - started;
    console.log(
      `cold load (transpile, cap, compile, first thread): ${ms(loadMs)}; first call after load: ${ms(firstCallMs)}`,
    );

    // Warm the pool to the per-plugin limit, then time sequential calls (a new event each).
    await Promise.all(
      Array.from({ length: limits.perPluginLimit }, (_, i) =>
        expectOk(call(artifact, i, `warm-${i}`)),
      ),
    );
    await sequential(100, (i) => expectOk(call(artifact, i, `warmup-${i}`)));
    const warm = stats(await sequential(WARM_CALLS, (i) => expectOk(call(artifact, i, `w-${i}`))));
    const sameEvent = stats(
      await sequential(WARM_CALLS, (i) => expectOk(call(artifact, i, 'one-event'))),
    );
    console.log(
      `warm invoke (one event, its instance reused — the warm-call reference): p50 ${ms(sameEvent.p50)}, p95 ${ms(sameEvent.p95)}`,
    );
    console.log(
      `warm invoke (new event each: a fresh instance): p50 ${ms(warm.p50)}, p95 ${ms(warm.p95)} | bare-function reference p95 ${ms(reference.invoke.p95)} | ratio p95 ${(warm.p95 / reference.invoke.p95).toFixed(1)}`,
    );
    console.log(
      `fresh-instance cost, back to back (new event - same event): p50 ${ms(warm.p50 - sameEvent.p50)}, p95 ${ms(warm.p95 - sameEvent.p95)} (target p95 <= 2 ms)`,
    );
    // Events BENCH_PACE_MS apart: the threads' spare pools refill between them (the back-to-back
    // figure above is bound by the refill's CPU instead).
    const paced = stats(
      await sequential(WARM_CALLS, async (i) => {
        await expectOk(call(artifact, i, `p-${i}`));
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }).then((samples) => samples.map((sample) => sample - PACE_MS)),
    );
    console.log(
      `warm invoke (new event every ${PACE_MS} ms: a fresh instance from the spare pool): p50 ${ms(paced.p50)}, p95 ${ms(paced.p95)}; fresh-instance cost p50 ${ms(paced.p50 - sameEvent.p50)}, p95 ${ms(paced.p95 - sameEvent.p95)} (target p95 <= 2 ms)`,
    );
    // The same pacing for calls of one event (its instance reused): a thread woken after
    // BENCH_PACE_MS idle answers slower than one kept busy (cold caches, a sleeping core), so
    // this is the like-for-like reference of the paced figure.
    const pacedSame = stats(
      await sequential(WARM_CALLS, async (i) => {
        await expectOk(call(artifact, i, 'one-paced-event'));
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }).then((samples) => samples.map((sample) => sample - PACE_MS)),
    );
    console.log(
      `warm invoke (one event, a call every ${PACE_MS} ms — the paced reference): p50 ${ms(pacedSame.p50)}, p95 ${ms(pacedSame.p95)}; paced fresh-instance cost against it p50 ${ms(paced.p50 - pacedSame.p50)}, p95 ${ms(paced.p95 - pacedSame.p95)}`,
    );
    const withCall = stats(
      await sequential(WARM_CALLS, (i) => expectOk(call(artifact, i, 'one-event', true))),
    );
    console.log(
      `host-call round trip (is-cve-known): ${ms(withCall.p50 - sameEvent.p50)} (p50 ${ms(withCall.p50)} with one call - ${ms(sameEvent.p50)} without) | reference ${(reference.hostCallMs * 1000).toFixed(1)} µs`,
    );

    const oneEvent = await throughput(FINDINGS, limits.perPluginLimit, (i) =>
      expectOk(call(artifact, i, 'one-report')),
    );
    console.log(
      `enrichment, ${FINDINGS} findings, ${limits.perPluginLimit} at once, one event: ${(oneEvent / 1000).toFixed(2)} s (${rate(oneEvent)}; ${cpuPerCall(FINDINGS)}) | reference ${(reference.wall / 1000).toFixed(2)} s | ratio ${(oneEvent / reference.wall).toFixed(1)}`,
    );
    const eventEach = await throughput(EVENT_EACH, limits.perPluginLimit, (i) =>
      expectOk(call(artifact, i, `finding-${i}`)),
    );
    const eventEachRate = (EVENT_EACH / eventEach) * 1000;
    console.log(
      `enrichment, ${EVENT_EACH} findings, ${limits.perPluginLimit} at once, an event each: ${(eventEach / 1000).toFixed(2)} s (${Math.round(eventEachRate)} findings/s; ${cpuPerCall(EVENT_EACH)}; target 10 000 in <= 30 s) | reference ${Math.round((FINDINGS / reference.wall) * 1000)} calls/s | ratio ${(((FINDINGS / reference.wall) * 1000) / eventEachRate).toFixed(1)}`,
    );
    console.log(
      `load at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await host.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

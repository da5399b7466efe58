/**
 * Where a fresh-instance event's wall time goes (issue 34 item 3; not part of `npm test`):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/plugins/fresh-instance-breakdown.ts
 *
 * Runs the SDK's example enricher in sandbox threads started from the runner's own thread
 * script (apps/plugin-runner/src/wasm/threads/sandbox-thread.mjs), copied to a temporary file
 * with timestamps added at four anchors (the copy fails loudly when an anchor moved), and a
 * GC observer in each thread. The parent picks a thread as PluginPool does (the event's own
 * instance, else an idle thread with a spare that is not refilling, else any with a spare;
 * the most recently released first) and splits each event into:
 *   dispatch   posted by the parent -> the thread's invoke handler runs (a refill step or a GC
 *              of the thread in between shows as `step`/`gc` beside it);
 *   take       taking the instance (a spare, or an inline instantiation without one);
 *   call       the export's call (the guest's first call on a never-used instance);
 *   reply      keeping the instance for the event and posting the result;
 *   back       the thread posts the result -> the parent has it.
 * Phases: one event (warm reference), a new event every BENCH_PACE_MS, one event at the same
 * pace (the paced reference), and new events back to back.
 * Env: BENCH_CALLS (300), BENCH_PACE_MS (20), BENCH_THREADS (4), BENCH_SPARE_INSTANCES (2),
 * BENCH_INHERIT_EXEC_ARGV=1 (threads start with this process's node options, as before 776c5d9).
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MessageChannel, Worker } from 'node:worker_threads';
import { artifactDigest } from '@platform/plugin-sdk';
import { buildPlugin, componentCacheDir, examplePluginDir } from '@platform/plugin-sdk/build';
import {
  type CompiledComponent,
  compileComponentCached,
} from '../../../apps/plugin-runner/src/wasm/compile/component-compiler';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 300);
const PACE_MS = Number(process.env['BENCH_PACE_MS'] ?? 20);
const THREADS = Number(process.env['BENCH_THREADS'] ?? 4);
const SPARES = Number(process.env['BENCH_SPARE_INSTANCES'] ?? 2);
const INHERIT = process.env['BENCH_INHERIT_EXEC_ARGV'] === '1';
const THREAD_SCRIPT = join(
  __dirname,
  '../../../apps/plugin-runner/src/wasm/threads/sandbox-thread.mjs',
);

const now = () => performance.timeOrigin + performance.now();

/** [anchor, text inserted after it]: timestamps and a GC/refill-step trace for the copy. */
const PATCHES: [string, string][] = [
  [
    "import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';",
    `
import { PerformanceObserver as BenchObserver, performance as benchPerf } from 'node:perf_hooks';
const benchNow = () => benchPerf.timeOrigin + benchPerf.now();
const benchTrace = [];
new BenchObserver((list) => { for (const e of list.getEntries()) benchTrace.push(['gc', benchPerf.timeOrigin + e.startTime, benchPerf.timeOrigin + e.startTime + e.duration]); }).observe({ entryTypes: ['gc'] });
setInterval(() => { if (benchTrace.length) parentPort?.postMessage({ type: 'trace', entries: benchTrace.splice(0) }); }, 200).unref();`,
  ],
  [
    // A microtask queued in the step runs as soon as the step's synchronous work is done.
    'function refillStep() {\n  refillScheduled = false;',
    '\n  const benchStep = benchNow();\n  queueMicrotask(() => benchTrace.push(["step", benchStep, benchNow()]));',
  ],
  ['function invoke(message) {', '\n  const T = { recv: benchNow(), spare: spares.length > 0 };'],
  ['  const target = instance.exports?.[message.exportName];', '\n  T.taken = benchNow();'],
];

async function instrumentedScript(dir: string): Promise<string> {
  let source = await readFile(THREAD_SCRIPT, 'utf8');
  for (const [anchor, insert] of PATCHES) {
    if (!source.includes(anchor)) throw new Error(`the thread script changed: no "${anchor}"`);
    source = source.replace(anchor, anchor + insert);
  }
  // The call ends where the instance is kept for the event; the result carries the timestamps.
  const callEnd = '  if (!trapped) {\n    bound = {';
  if (!source.includes(callEnd)) throw new Error('the thread script changed: no call end');
  source = source.replace(callEnd, `  T.called = benchNow();\n${callEnd}`);
  const post = '    parentPort?.postMessage({ ...reply, ...pool });';
  if (!source.includes(post)) throw new Error('the thread script changed: no result post');
  source = source.replace(
    post,
    '    T.posted = benchNow();\n    parentPort?.postMessage({ ...reply, ...pool, T });',
  );
  const path = join(dir, 'sandbox-thread-timed.mjs');
  await writeFile(path, source);
  return path;
}

type Span = [kind: string, start: number, end: number];
interface ThreadTimes {
  recv: number;
  taken: number;
  called: number;
  posted: number;
  spare: boolean;
}
interface ResultMessage {
  type: 'result';
  ok: boolean;
  T: ThreadTimes;
  spares?: number;
  refilling?: boolean;
}
interface Event {
  thread: BenchThread;
  posted: number;
  got: number;
  T: ThreadTimes;
}

class BenchThread {
  readonly ready: Promise<void>;
  readonly trace: Span[] = [];
  spares = 0;
  refilling = false;
  since = 0;
  last: string | undefined;
  private readonly worker: Worker;
  private pending: ((message: ResultMessage) => void) | undefined;

  constructor(script: string, compiled: CompiledComponent) {
    const { port2 } = new MessageChannel();
    this.worker = new Worker(script, {
      workerData: {
        glue: compiled.glue,
        modules: compiled.modules,
        memories: compiled.memories,
        signal: new SharedArrayBuffer(4),
        hostPort: port2,
        logLinesPerCall: 100,
        eventInstanceIdleMs: 60_000,
        spareInstances: SPARES,
      },
      transferList: [port2],
      env: {},
      ...(INHERIT ? {} : { execArgv: [] }),
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      type ThreadMessage =
        | { type: 'trace'; entries: Span[] }
        | { type: 'ready' | 'spare' | 'broken'; spares?: number; refilling?: boolean }
        | ResultMessage;
      this.worker.on('message', (message: ThreadMessage) => {
        if (message.type === 'trace') return void this.trace.push(...message.entries);
        if (typeof message.spares === 'number') this.spares = message.spares;
        if (typeof message.refilling === 'boolean') this.refilling = message.refilling;
        if (message.type === 'ready') resolve();
        if (message.type === 'result') {
          const done = this.pending;
          this.pending = undefined;
          done?.(message);
        }
      });
    });
  }

  readiness(key: string): number {
    if (this.last === key) return 3;
    if (this.spares === 0) return 0;
    return this.refilling ? 1 : 2;
  }

  invoke(key: string, i: number): Promise<Event> {
    if (this.readiness(key) < 3) this.spares = Math.max(0, this.spares - 1);
    this.refilling = true;
    this.last = key;
    return new Promise((resolve, reject) => {
      const posted = now();
      this.pending = (message) =>
        message.ok
          ? resolve({ thread: this, posted, got: now(), T: message.T })
          : reject(new Error(JSON.stringify(message)));
      this.worker.postMessage({
        type: 'invoke',
        id: i,
        key,
        exportName: 'findingEnricher',
        operation: 'enrich',
        args: [
          {
            eventId: key,
            settingsJson: JSON.stringify({
              zones: [{ cidr: '10.1.0.0/16', zone: 'office' }],
              check_cves: false,
            }),
          },
          {
            id: `f-${i}`,
            severity: 'HIGH',
            rule: `rule-${i % 50}`,
            description: 'bench finding',
            scanner: 'bench',
            status: 'open',
            ip: `10.1.${(i >> 8) & 255}.${i & 255}`,
          },
        ],
        deadlineAt: Date.now() + 10_000,
        hostCallTimeoutMs: 5_000,
      });
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

const overlap = (a0: number, a1: number, b0: number, b1: number) =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function report(name: string, events: Event[]): void {
  const rows = events.map((e) => {
    const row = {
      total: e.got - e.posted,
      dispatch: e.T.recv - e.posted,
      take: e.T.taken - e.T.recv,
      call: e.T.called - e.T.taken,
      reply: e.T.posted - e.T.called,
      back: e.got - e.T.posted,
      'gc in dispatch': 0,
      'step in dispatch': 0,
      'gc in call/reply': 0,
    };
    for (const [kind, start, end] of e.thread.trace) {
      if (kind === 'gc') {
        row['gc in dispatch'] += overlap(e.posted, e.T.recv, start, end);
        row['gc in call/reply'] += overlap(e.T.taken, e.T.posted, start, end);
      } else row['step in dispatch'] += overlap(e.posted, e.T.recv, start, end);
    }
    return row;
  });
  const keys = Object.keys(rows[0] ?? {}) as (keyof (typeof rows)[number])[];
  const slowest = [...rows].sort((a, b) => b.total - a.total).slice(0, Math.ceil(rows.length / 10));
  console.log(
    `${name} (${rows.length} events, ${events.filter((e) => e.T.spare).length} from a spare)`,
  );
  console.log(
    `  p50 / p95: ${keys
      .map(
        (k) =>
          `${k} ${quantile(
            rows.map((r) => r[k]),
            0.5,
          ).toFixed(2)} / ${quantile(
            rows.map((r) => r[k]),
            0.95,
          ).toFixed(2)}`,
      )
      .join(', ')} ms`,
  );
  console.log(
    `  mean of the slowest 10 %: ${keys.map((k) => `${k} ${(slowest.reduce((sum, r) => sum + r[k], 0) / slowest.length).toFixed(2)}`).join(', ')} ms`,
  );
}

async function main(): Promise<void> {
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `load ${load()}; threads ${THREADS}, spares ${SPARES}, node options ${INHERIT ? 'inherited' : 'none'}`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'fresh-breakdown-'));
  const threads: BenchThread[] = [];
  try {
    const built = await buildPlugin({
      sourceDir: examplePluginDir('zone-enricher'),
      outDir: dir,
      cacheDir: componentCacheDir(process.env),
    });
    const compiled = await compileComponentCached(
      artifactDigest(built.component),
      built.component,
      built.manifest,
      { memoryLimitBytes: 64 * 2 ** 20, timeoutMs: 120_000 },
    );
    const script = await instrumentedScript(dir);
    for (let i = 0; i < THREADS; i++) threads.push(new BenchThread(script, compiled));
    await Promise.all(threads.map((t) => t.ready));
    const idle = new Map<BenchThread, number>(threads.map((t, i) => [t, i]));
    const one = async (key: string, i: number, into?: Event[]) => {
      let best: BenchThread | undefined;
      for (const [thread, since] of idle) {
        const score = thread.readiness(key);
        const bestScore = best?.readiness(key) ?? -1;
        if (score > bestScore || (score === bestScore && since > (idle.get(best!) ?? -1))) {
          best = thread;
        }
      }
      const thread = best as BenchThread;
      idle.delete(thread);
      const event = await thread.invoke(key, i);
      idle.set(thread, performance.now());
      into?.push(event);
    };
    const pause = () => new Promise((resolve) => setTimeout(resolve, PACE_MS));
    for (let i = 0; i < 200; i++) await one(`warm-up-${i}`, i);
    const cpuStart = process.cpuUsage();
    const same: Event[] = [];
    for (let i = 0; i < CALLS; i++) await one('one-event', i, same);
    const paced: Event[] = [];
    for (let i = 0; i < CALLS; i++) {
      await one(`paced-${i}`, i, paced);
      await pause();
    }
    const pacedSame: Event[] = [];
    for (let i = 0; i < CALLS; i++) {
      await one('one-paced-event', i, pacedSame);
      await pause();
    }
    const backToBack: Event[] = [];
    for (let i = 0; i < CALLS; i++) await one(`b2b-${i}`, i, backToBack);
    const cpu = process.cpuUsage(cpuStart);
    await new Promise((resolve) => setTimeout(resolve, 400)); // the last trace messages
    report('one event, back to back (warm reference)', same);
    report(`a new event every ${PACE_MS} ms`, paced);
    report(`one event, a call every ${PACE_MS} ms (paced reference)`, pacedSame);
    report('a new event each, back to back', backToBack);
    const spans = threads.flatMap((t) => t.trace);
    const gcs = spans.filter(([kind]) => kind === 'gc').map(([, s, e]) => e - s);
    const steps = spans.filter(([kind]) => kind === 'step').map(([, s, e]) => e - s);
    console.log(
      `refill steps: ${steps.length}, p50 ${quantile(steps, 0.5).toFixed(2)} / p95 ${quantile(steps, 0.95).toFixed(2)} ms; thread GC pauses: ${gcs.length}, ${gcs.reduce((a, b) => a + b, 0).toFixed(0)} ms in all; process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms for ${4 * CALLS} events; load ${load()}`,
    );
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

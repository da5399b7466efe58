import { MessageChannel, Worker } from 'node:worker_threads';
import { compileComponentCached } from '../../src/wasm/compile/component-compiler';
import { threadScript } from '../../src/wasm/threads/thread-scripts';
import { BUILD_TIMEOUT_MS, testComponent } from './support/wasm-lab';

jest.setTimeout(120_000);

type ThreadMessage = { type: string; [key: string]: unknown };

/**
 * The warm-up of a spare instance (threads/sandbox-thread.mjs, issue 34): while idle, the
 * thread calls an export of each never-used instance's glue with arguments whose first read
 * throws, so the event's call is not the glue's first. Seen from the thread's own messages:
 * the spares are reported warmed, nothing reached the host port (no host call, no log, no
 * egress) and every event still finds the probe's instance state at its start (calls 1).
 */
/** A sandbox thread of the probe plugin, its messages, and a wait for one of them. */
async function startProbeThread(spareInstances: number, extraData: Record<string, unknown> = {}) {
  const probe = await testComponent('probe');
  const compiled = await compileComponentCached(probe.digest, probe.component, probe.manifest, {
    memoryLimitBytes: 64 * 2 ** 20,
    timeoutMs: BUILD_TIMEOUT_MS,
  });
  const hostChannel = new MessageChannel();
  const hostMessages: unknown[] = [];
  hostChannel.port1.on('message', (message) => hostMessages.push(message));
  const thread = new Worker(threadScript('sandbox-thread'), {
    workerData: {
      glue: compiled.glue,
      modules: compiled.modules,
      memories: compiled.memories,
      signal: new SharedArrayBuffer(4),
      hostPort: hostChannel.port2,
      logLinesPerCall: 100,
      eventInstanceIdleMs: 60_000,
      spareInstances,
      ...extraData,
    },
    transferList: [hostChannel.port2],
    env: {},
    execArgv: [],
  });
  /** Every message with the time it arrived (performance.now()). */
  const messages: (ThreadMessage & { at: number })[] = [];
  let waiter: { test: (m: ThreadMessage) => boolean; resolve: (m: ThreadMessage) => void };
  /** The first message (since the last reset) that passes `test`; fails after 30 s. */
  const next = (test: (m: ThreadMessage) => boolean) =>
    new Promise<ThreadMessage & { at: number }>((resolve, reject) => {
      const seen = messages.find(test);
      if (seen) return resolve(seen);
      const timer = setTimeout(
        () => reject(new Error(`not seen in 30 s; got ${JSON.stringify(messages.slice(-3))}`)),
        30_000,
      );
      waiter = {
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as ThreadMessage & { at: number });
        },
      };
    });
  thread.on('message', (message: ThreadMessage) => {
    const stamped = { ...message, at: performance.now() };
    messages.push(stamped);
    if (waiter?.test(stamped)) waiter.resolve(stamped);
  });
  const allWarmed = (m: ThreadMessage) =>
    m.type === 'spare' && m['warmed'] === spareInstances && m['refilling'] === false;
  return { thread, messages, hostMessages, next, allWarmed };
}

/** Event `i`'s call of the probe's `enrich` (two projects, alternately). */
function invokeMessage(i: number) {
  return {
    type: 'invoke',
    id: i + 1,
    key: `project-${i % 2}/event-${i}`,
    exportName: 'findingEnricher',
    operation: 'enrich',
    args: [
      { eventId: `event-${i}`, settingsJson: JSON.stringify({ label: `secret-${i}` }) },
      {
        id: `f-${i}`,
        severity: i % 2 ? 'HIGH' : 'LOW',
        rule: 'tags',
        description: `event ${i}'s data`,
        scanner: 'test',
        status: 'open',
      },
    ],
    deadlineAt: Date.now() + 30_000,
    hostCallTimeoutMs: 5_000,
  };
}

describe('WebAssembly sandbox: warm-up of spare instances', () => {
  let worker: Worker | undefined;

  afterEach(async () => {
    await worker?.terminate();
    worker = undefined;
  });

  it(
    'warms each spare without entering the guest or calling the host, and events start fresh',
    async () => {
      const spareInstances = 3;
      const probe = await startProbeThread(spareInstances);
      const { thread, messages, hostMessages, next, allWarmed } = probe;
      worker = thread;

      await next(allWarmed);
      expect(messages.find((m) => m.type === 'broken')).toBeUndefined();
      expect(hostMessages).toEqual([]);

      const tags: Record<string, string>[] = [];
      for (let i = 0; i < 5; i++) {
        messages.length = 0;
        thread.postMessage(invokeMessage(i));
        const result = await next((m) => m.type === 'result' && m['id'] === i + 1);
        expect(result).toMatchObject({ ok: true });
        tags.push(
          Object.fromEntries(
            (result['value'] as { key: string; value: string }[]).map((t) => [t.key, t.value]),
          ),
        );
        // The thread takes the used instance back and warms a new spare before the next event.
        await next(allWarmed);
      }
      expect(tags).toEqual(
        Array.from({ length: 5 }, (_, i) => ({
          severity: i % 2 ? 'HIGH' : 'LOW',
          'calls-on-instance': '1',
          label: `secret-${i}`,
          event: `event-${i}`,
        })),
      );
      // The probe's `tags` makes no host call: anything on the port came from a warm-up.
      expect(hostMessages).toEqual([]);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'starts the refill only refillAfterCallMs after a reply, and says it is refilling',
    async () => {
      const probe = await startProbeThread(2, { refillAfterCallMs: 400 });
      const { thread, messages, next, allWarmed } = probe;
      worker = thread;
      await next(allWarmed);
      for (let i = 0; i < 3; i++) {
        messages.length = 0;
        thread.postMessage(invokeMessage(i));
        const result = await next((m) => m.type === 'result' && m['id'] === i + 1);
        expect(result).toMatchObject({ ok: true, spares: 1, refilling: true });
        // The first refill step's report; without the delay it follows within milliseconds.
        const step = await next((m) => m.type === 'spare');
        expect(step.at - result.at).toBeGreaterThanOrEqual(390);
        await next(allWarmed);
      }
    },
    BUILD_TIMEOUT_MS,
  );
});

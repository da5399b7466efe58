// @ts-check
/**
 * A sandbox thread: holds one plugin version's compiled core modules and the host-generated
 * glue, keeps up to `spareInstances` fresh component instances ready (made in the background
 * while idle, one per event-loop turn so an arriving call is not held up by more than one,
 * starting `refillAfterCallMs` (3 ms) after a call's reply),
 * and runs one invocation at a time. An instance serves one event only: a call for the event
 * of the previous call (same `key` = project + event id) reuses that call's instance, any other
 * call takes a never-used spare, so no state passes from one event — or project — to another.
 * A used instance is discarded (dropped after `eventInstanceIdleMs`, or when another event
 * comes); only its linear memory is recycled for a new instance, after every byte was set back
 * to zero and only if it still has its initial size (compile/memory-import.ts) — exactly what
 * a new WebAssembly.Memory is. The parent terminates the thread at a call's deadline and after
 * a trap (jco's glue keeps per-component state that a trap poisons).
 *
 * A spare is warmed up once while the thread is idle (warmUp below): an export of its glue is
 * called with arguments whose first read throws, so the glue's per-instance call machinery runs
 * once and the event's call is not the glue's first — the guest is never entered, no host call
 * can be made, and the arguments are the same constant for every spare.
 *
 * Host calls are synchronous for the guest (Node 20 has no JSPI): the request goes to the
 * parent over `hostPort`; the thread blocks in Atomics.wait on `signal` until the parent has
 * posted the reply and bumped the counter, then takes the reply with receiveMessageOnPort.
 * Replies carry the request's sequence number; anything else (a late reply to a call that
 * timed out) is dropped.
 *
 * workerData: { glue: string, modules: [name, WebAssembly.Module][], memories: [name, { initialPages, maximumPages }][],
 *               signal: SharedArrayBuffer, hostPort: MessagePort, logLinesPerCall: number,
 *               eventInstanceIdleMs: number, spareInstances: number, refillAfterCallMs?: number }
 * parent -> thread: { type: 'invoke', id, key, exportName, operation, args, deadlineAt, hostCallTimeoutMs }
 * thread -> parent: { type: 'ready', spares, warmed } | { type: 'spare', spares, warmed, refilling } | { type: 'broken', message }
 *                   | { type: 'result', id, ok: true, value, droppedLogs, spares, refilling }
 *                   | { type: 'result', id, ok: false, kind: 'plugin_error' | 'trap' | 'no_export', message, detail?, droppedLogs, spares, refilling }
 * thread -> hostPort: { seq, call, args, logCalls } (a reply is awaited) | { seq: 0, call: 'log', args }
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';

/** @typedef {{ initialPages: number, maximumPages: number }} MemorySpec */
/** @type {{ glue: string, modules: [string, WebAssembly.Module][], memories: [string, MemorySpec][], signal: SharedArrayBuffer, hostPort: import('node:worker_threads').MessagePort, logLinesPerCall: number, eventInstanceIdleMs: number, spareInstances: number, refillAfterCallMs?: number }} */
const data = workerData;
const signal = new Int32Array(data.signal);
const modules = new Map(data.modules);
const hostPort = data.hostPort;
/** The memory each rewritten core module imports, by module. @type {Map<WebAssembly.Module, MemorySpec>} */
const memorySpecs = new Map();
for (const [name, spec] of data.memories ?? []) {
  const module = modules.get(name);
  if (module) memorySpecs.set(module, spec);
}

// jco's glue probes JSPI with `try { WebAssembly.promising(f) } catch {}` twice per
// instantiation; Node 20 has none, and V8 builds the "is not a function" message by parsing
// the glue's 1 800-line init function again (~1.5-3 ms of each instantiation, measured). The
// same failure, thrown without the parse: the glue takes its usual fallback.
const NO_JSPI = new TypeError('WebAssembly.promising is not available (no JSPI)');
const wasmApi = /** @type {any} */ (WebAssembly);
if (typeof wasmApi.promising !== 'function') {
  wasmApi.promising = () => {
    throw NO_JSPI;
  };
}

let sequence = 0;
/** The running call's limits (host calls never wait past them). */
let current = { deadlineAt: 0, hostCallTimeoutMs: 0, logs: 0, droppedLogs: 0 };

/**
 * @param {string} call
 * @param {unknown[]} args
 * @returns {{ tag: 'ok' | 'err', val?: unknown }}
 */
function hostCall(call, args) {
  if (warming) throw new Error('no host call during a warm-up');
  const seq = ++sequence;
  const until = Math.min(Date.now() + current.hostCallTimeoutMs, current.deadlineAt);
  let seen = Atomics.load(signal, 0);
  // `logCalls`: log() is a host call too, dropped lines included (the parent's 1 000 limit).
  hostPort.postMessage({ seq, call, args, logCalls: current.logs + current.droppedLogs });
  for (;;) {
    const received = receiveMessageOnPort(hostPort);
    if (received) {
      const reply = received.message;
      if (reply && reply.seq === seq) return reply.result;
      continue; // a late reply to an earlier call that timed out: dropped
    }
    const remaining = until - Date.now();
    if (remaining <= 0) {
      return { tag: 'err', val: { tag: 'unavailable', val: `${call} timed out` } };
    }
    Atomics.wait(signal, 0, seen, remaining);
    seen = Atomics.load(signal, 0);
  }
}

const LOG_LEVELS = new Set(['debug', 'info', 'warn', 'error']);

const host = {
  httpRequest: (/** @type {unknown} */ request) => hostCall('http-request', [request]),
  getSecret: (/** @type {unknown} */ name) => hostCall('get-secret', [name]),
  getProjectSecret: (/** @type {unknown} */ name) => hostCall('get-project-secret', [name]),
  sendEmail: (/** @type {unknown} */ message) => hostCall('send-email', [message]),
  isCveKnown: (/** @type {unknown} */ ids) => hostCall('is-cve-known', [ids]),
  log: (/** @type {unknown} */ level, /** @type {unknown} */ message) => {
    if (warming) throw new Error('no host call during a warm-up');
    // Fire and forget; the parent caps size and rate and scrubs. A runaway logger is cut
    // here already so it cannot flood the parent's message queue.
    if (current.logs >= data.logLinesPerCall) {
      current.droppedLogs++;
      return;
    }
    current.logs++;
    const text = typeof message === 'string' ? message.slice(0, 65536) : '';
    hostPort.postMessage({
      seq: 0,
      call: 'log',
      args: [LOG_LEVELS.has(String(level)) ? level : 'info', text],
    });
  },
};
// jco's glue looks the unversioned name up; the component names the versioned one.
const imports = { 'findsvc:plugin/host': host, 'findsvc:plugin/host@0.1.0': host };

/** @type {any} */
let glue;
/**
 * A component instance: the glue's exports and the memories it was given.
 * @typedef {{ exports: any, memories: { spec: MemorySpec, memory: WebAssembly.Memory }[], warmed?: boolean }} Instance
 */
/** Never-used instances, made ahead while the thread is idle. @type {Instance[]} */
const spares = [];
/** The instance that served the last call, kept for further calls of the same event. */
/** @type {{ key: string, instance: Instance, timer: NodeJS.Timeout } | undefined} */
let bound;
/** Used instances whose memories wait to be zeroed and recycled. @type {Instance[]} */
const retired = [];
/**
 * Zeroed memories of the initial size, by spec: at most spareInstances + 1 each. Under a
 * steady stream of events a call can retire an instance before the refill has used the last
 * zeroed memory; keeping only one would drop memories and make new ones (the slow path).
 */
/** @type {Map<MemorySpec, WebAssembly.Memory[]>} */
const zeroed = new Map();
/** The next refill step when it is due at the next turn. @type {NodeJS.Immediate | undefined} */
let refillScheduled;
/** The next refill step when it is due after a call (scheduleRefillAfterCall). @type {NodeJS.Timeout | undefined} */
let refillTimer;
/** How long after a call's reply the refill starts (workerData.refillAfterCallMs; tests). */
const refillAfterCallMs = data.refillAfterCallMs ?? 3;
/** Set while a spare is warmed up: a host function called then throws instead (never happens). */
let warming = false;
/** Whether warm-ups stay on: off for good after one that did not stop at its sentinel. */
let warmUps = true;
/** The export and operation of the last call (what a warm-up calls), else the first found. */
/** @type {{ exportName: string, operation: string } | undefined} */
let lastOperation;

/** @param {MemorySpec} spec */
function memoryFor(spec) {
  return (
    zeroed.get(spec)?.pop() ??
    new WebAssembly.Memory({ initial: spec.initialPages, maximum: spec.maximumPages })
  );
}

/** @returns {Instance} */
function instantiate() {
  /** @type {Instance['memories']} */
  const memories = [];
  const exports = glue.instantiate(
    (/** @type {string} */ name) => {
      const module = modules.get(name);
      if (!module) throw new Error(`no core module ${name}`);
      return module;
    },
    imports,
    (/** @type {WebAssembly.Module} */ module, /** @type {any} */ importObject) => {
      const spec = memorySpecs.get(module);
      if (!spec) return new WebAssembly.Instance(module, importObject);
      const memory = memoryFor(spec);
      memories.push({ spec, memory });
      return new WebAssembly.Instance(module, {
        ...importObject,
        'findsvc:sandbox': { memory },
      });
    },
  );
  return { exports, memories };
}

/**
 * What a warm-up passes for every argument: any read of it throws WARM_UP_STOP. jco's glue
 * lowers an export's arguments (reads their fields) before it enters the guest, so the call
 * stops there — after the glue's per-instance call machinery ran once (its task and state
 * classes, defined per instance, get their hidden classes: ~0.15 ms of the event's first call,
 * measured) and, for arguments passed by pointer, one `cabi_realloc` of the argument area in
 * the guest's allocator (no guest JavaScript runs; the block holds nothing).
 */
const WARM_UP_STOP = new Error('warm-up: the arguments were read');
const WARM_UP_ARGUMENT = new Proxy(
  {},
  {
    get: () => {
      throw WARM_UP_STOP;
    },
    has: () => {
      throw WARM_UP_STOP;
    },
    ownKeys: () => {
      throw WARM_UP_STOP;
    },
    getOwnPropertyDescriptor: () => {
      throw WARM_UP_STOP;
    },
    getPrototypeOf: () => {
      throw WARM_UP_STOP;
    },
  },
);

/** @param {any} exports @returns {{ target: any, fn: Function } | undefined} */
function warmUpTarget(exports) {
  if (lastOperation) {
    const target = exports?.[lastOperation.exportName];
    const fn = target?.[lastOperation.operation];
    if (typeof fn === 'function') return { target, fn };
  }
  for (const target of Object.values(exports ?? {})) {
    for (const fn of Object.values(target ?? {})) {
      if (typeof fn === 'function') return { target, fn };
    }
  }
  return undefined;
}

/**
 * Warms a never-used instance up (see WARM_UP_ARGUMENT). Only a function that takes arguments
 * is called (one without would run the guest). Returns false when the call ended in any other
 * way than the sentinel: then the guest may have run, and the caller discards the instance.
 * @param {Instance} instance
 */
function warmUp(instance) {
  instance.warmed = true;
  const found = warmUpTarget(instance.exports);
  if (!found || found.fn.length === 0) return true;
  const args = new Array(found.fn.length).fill(WARM_UP_ARGUMENT);
  const stackTraceLimit = Error.stackTraceLimit;
  warming = true;
  Error.stackTraceLimit = 0;
  try {
    found.fn.apply(found.target, args);
    return false;
  } catch (error) {
    return error === WARM_UP_STOP;
  } finally {
    warming = false;
    Error.stackTraceLimit = stackTraceLimit;
  }
}

const OS_PAGE = 4096;
const ZERO_PAGE = Buffer.alloc(OS_PAGE);

/**
 * Sets every byte of a memory to zero. Page by page, writing only pages that are not zero
 * already: a page the instance never touched stays unbacked (the RSS of a recycled memory is
 * what its instance used, not its whole size), and comparing is cheaper than writing.
 * @param {WebAssembly.Memory} memory
 */
function zero(memory) {
  const bytes = Buffer.from(memory.buffer);
  for (let at = 0; at < bytes.length; at += OS_PAGE) {
    if (bytes.compare(ZERO_PAGE, 0, OS_PAGE, at, at + OS_PAGE) !== 0) {
      bytes.fill(0, at, at + OS_PAGE);
    }
  }
}

/**
 * Takes back the memories of a used instance (never called again): each is set to zero from
 * its first to its last byte and kept for the next new instances — unless it grew past its
 * initial size (a memory cannot shrink) or enough are kept already; then it is left to the GC.
 * @param {Instance} instance
 */
function recycle(instance) {
  for (const { spec, memory } of instance.memories) {
    const kept = zeroed.get(spec) ?? [];
    zeroed.set(spec, kept);
    if (memory.buffer.byteLength !== spec.initialPages * 65536) continue;
    if (kept.length > data.spareInstances) continue;
    zero(memory);
    kept.push(memory);
  }
}

function retire() {
  if (!bound) return;
  clearTimeout(bound.timer);
  retired.push(bound.instance);
  bound = undefined;
}

function needsRefill() {
  return (
    retired.length > 0 ||
    spares.length < data.spareInstances ||
    (warmUps && spares.some((spare) => !spare.warmed))
  );
}

function warmedSpares() {
  return spares.filter((spare) => spare.warmed).length;
}

function scheduleRefill() {
  if (refillScheduled || refillTimer || !needsRefill()) return;
  refillScheduled = setImmediate(refillStep);
}

/** One step of background work per event-loop turn (a call that arrives waits for one step). */
function refillStep() {
  refillScheduled = undefined;
  refillTimer = undefined;
  const used = retired.pop();
  const cold = warmUps ? spares.find((spare) => !spare.warmed) : undefined;
  if (used) {
    recycle(used);
  } else if (cold) {
    if (!warmUp(cold)) {
      // Never used for an event: dropped (its memory too), and no more warm-ups here.
      warmUps = false;
      spares.splice(spares.indexOf(cold), 1);
    }
  } else if (spares.length < data.spareInstances) {
    try {
      spares.push(instantiate());
    } catch (error) {
      parentPort?.postMessage({ type: 'broken', message: describe(error) });
      return;
    }
  }
  parentPort?.postMessage({
    type: 'spare',
    spares: spares.length,
    warmed: warmedSpares(),
    refilling: needsRefill(),
  });
  scheduleRefill();
}

function dropBound() {
  retire();
  scheduleRefill();
}

/** @param {unknown} error */
function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * @param {{ id: number, key: string, exportName: string, operation: string, args: unknown[],
 *   deadlineAt: number, hostCallTimeoutMs: number }} message
 */
function invoke(message) {
  current = {
    deadlineAt: message.deadlineAt,
    hostCallTimeoutMs: message.hostCallTimeoutMs,
    logs: 0,
    droppedLogs: 0,
  };
  // An instance never serves two events: the same event (project + event id) may reuse the
  // instance of its previous call; any other event gets a fresh one.
  /** @type {Instance} */
  let instance;
  if (bound && bound.key === message.key) {
    instance = bound.instance;
    clearTimeout(bound.timer);
    bound = undefined;
  } else {
    retire();
    try {
      instance = spares.shift() ?? instantiate();
    } catch (error) {
      parentPort?.postMessage({
        type: 'result',
        id: message.id,
        ok: false,
        kind: 'trap',
        message: `no instance could be made: ${describe(error)}`,
        droppedLogs: 0,
      });
      return; // the parent terminates this thread
    }
  }
  const target = instance.exports?.[message.exportName];
  const fn = target?.[message.operation];
  if (typeof fn === 'function') {
    lastOperation = { exportName: message.exportName, operation: message.operation };
  }
  /** @type {Record<string, unknown>} */
  let reply;
  let trapped = false;
  if (typeof fn !== 'function') {
    reply = {
      type: 'result',
      id: message.id,
      ok: false,
      kind: 'no_export',
      message: `the component exports no ${message.exportName}.${message.operation}`,
      droppedLogs: 0,
    };
  } else {
    try {
      const value = fn.apply(target, message.args);
      reply = { type: 'result', id: message.id, ok: true, value, droppedLogs: current.droppedLogs };
    } catch (error) {
      const componentError =
        error instanceof Error &&
        error.constructor?.name === 'ComponentError' &&
        Object.prototype.hasOwnProperty.call(error, 'payload');
      // The plugin engine reports a failed allocation (the memory cap reached) as an error
      // thrown in the guest, which componentize-js turns into the error result: its heap is
      // exhausted, so it counts as a trap and the instance is discarded.
      const outOfMemory = componentError && /** @type {any} */ (error).payload === 'out of memory';
      trapped = !componentError || outOfMemory;
      reply = outOfMemory
        ? {
            type: 'result',
            id: message.id,
            ok: false,
            kind: 'trap',
            message: 'out of memory (the memory cap was reached)',
            droppedLogs: current.droppedLogs,
          }
        : componentError
          ? {
              type: 'result',
              id: message.id,
              ok: false,
              kind: 'plugin_error',
              message: error.message,
              detail: /** @type {any} */ (error).payload,
              droppedLogs: current.droppedLogs,
            }
          : {
              type: 'result',
              id: message.id,
              ok: false,
              kind: 'trap',
              message: describe(error),
              droppedLogs: current.droppedLogs,
            };
    }
  }
  if (!trapped) {
    bound = { key: message.key, instance, timer: setTimeout(dropBound, data.eventInstanceIdleMs) };
  }
  const pool = { spares: spares.length, refilling: !trapped && needsRefill() };
  try {
    parentPort?.postMessage({ ...reply, ...pool });
  } catch (error) {
    trapped = true;
    parentPort?.postMessage({
      type: 'result',
      id: message.id,
      ok: false,
      kind: 'trap',
      message: `the result cannot be passed on: ${describe(error)}`,
      droppedLogs: current.droppedLogs,
    });
  }
  if (trapped) return; // the parent terminates this thread
  scheduleRefillAfterCall();
}

/**
 * The refill after a call starts `refillAfterCallMs` later, not at the next turn: a refill step
 * started right behind the reply delayed the parent's receipt of it (the paced fresh event's
 * "back" p95 2.7-2.9 ms instead of 0.3; docs/benchmarks.md#plugin-refill-after-call). The reply
 * says `refilling`, so the parent sends new events elsewhere meanwhile. No timer when nothing
 * is to be refilled (calls of one event) or a step is already scheduled: a timer running is
 * kept, so a stream of calls does not put the refill off, and steps already chained are not cut
 * (cancelling them under a stream of new events doubled the CPU per event: spares ran out).
 */
function scheduleRefillAfterCall() {
  if (refillScheduled || refillTimer || !needsRefill()) return;
  refillTimer = setTimeout(refillStep, refillAfterCallMs);
}

async function start() {
  glue = await import(`data:text/javascript;base64,${Buffer.from(data.glue).toString('base64')}`);
  spares.push(instantiate());
  parentPort?.on('message', (message) => {
    if (message?.type === 'invoke') invoke(message);
  });
  parentPort?.postMessage({ type: 'ready', spares: spares.length, warmed: warmedSpares() });
  scheduleRefill();
}

start().catch((error) => parentPort?.postMessage({ type: 'broken', message: describe(error) }));

// @ts-check
/**
 * A sandbox thread: holds one plugin version's compiled core modules and the host-generated
 * glue, keeps one fresh component instance ready (made while idle), and runs one invocation
 * at a time. An instance serves one event only: a call for the event of the previous call
 * (same `key` = project + event id) reuses that call's instance, any other call takes the
 * fresh one, so no state passes from one event — or project — to another. The kept instance
 * is dropped after `eventInstanceIdleMs`. The parent terminates the thread at a call's
 * deadline and after a trap (jco's glue keeps per-component state that a trap poisons).
 *
 * Host calls are synchronous for the guest (Node 20 has no JSPI): the request goes to the
 * parent over `hostPort`; the thread blocks in Atomics.wait on `signal` until the parent has
 * posted the reply and bumped the counter, then takes the reply with receiveMessageOnPort.
 * Replies carry the request's sequence number; anything else (a late reply to a call that
 * timed out) is dropped.
 *
 * workerData: { glue: string, modules: [name, WebAssembly.Module][], signal: SharedArrayBuffer,
 *               hostPort: MessagePort, logLinesPerCall: number, eventInstanceIdleMs: number }
 * parent -> thread: { type: 'invoke', id, key, exportName, operation, args, deadlineAt, hostCallTimeoutMs }
 * thread -> parent: { type: 'ready' } | { type: 'spare' } | { type: 'broken', message }
 *                   | { type: 'result', id, ok: true, value, droppedLogs }
 *                   | { type: 'result', id, ok: false, kind: 'plugin_error' | 'trap' | 'no_export', message, detail?, droppedLogs }
 * thread -> hostPort: { seq, call, args, logCalls } (a reply is awaited) | { seq: 0, call: 'log', args }
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';

/** @type {{ glue: string, modules: [string, WebAssembly.Module][], signal: SharedArrayBuffer, hostPort: import('node:worker_threads').MessagePort, logLinesPerCall: number, eventInstanceIdleMs: number }} */
const data = workerData;
const signal = new Int32Array(data.signal);
const modules = new Map(data.modules);
const hostPort = data.hostPort;

let sequence = 0;
/** The running call's limits (host calls never wait past them). */
let current = { deadlineAt: 0, hostCallTimeoutMs: 0, logs: 0, droppedLogs: 0 };

/**
 * @param {string} call
 * @param {unknown[]} args
 * @returns {{ tag: 'ok' | 'err', val?: unknown }}
 */
function hostCall(call, args) {
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
/** A fresh instance, made ahead while the thread is idle. @type {any} */
let spare;
/** The instance that served the last call, kept for further calls of the same event. */
/** @type {{ key: string, instance: any, timer: NodeJS.Timeout } | undefined} */
let bound;

function instantiate() {
  return glue.instantiate((/** @type {string} */ name) => {
    const module = modules.get(name);
    if (!module) throw new Error(`no core module ${name}`);
    return module;
  }, imports);
}

function dropBound() {
  if (bound) clearTimeout(bound.timer);
  bound = undefined;
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
  let instance;
  if (bound && bound.key === message.key) {
    instance = bound.instance;
    clearTimeout(bound.timer);
    bound = undefined;
  } else {
    dropBound();
    instance = spare ?? instantiate();
    spare = undefined;
  }
  const target = instance?.[message.exportName];
  const fn = target?.[message.operation];
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
  try {
    parentPort?.postMessage(reply);
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
  bound = { key: message.key, instance, timer: setTimeout(dropBound, data.eventInstanceIdleMs) };
  if (!spare) {
    try {
      spare = instantiate();
      parentPort?.postMessage({ type: 'spare' });
    } catch (error) {
      parentPort?.postMessage({ type: 'broken', message: describe(error) });
    }
  }
}

async function start() {
  glue = await import(`data:text/javascript;base64,${Buffer.from(data.glue).toString('base64')}`);
  spare = instantiate();
  parentPort?.on('message', (message) => {
    if (message?.type === 'invoke') invoke(message);
  });
  parentPort?.postMessage({ type: 'ready' });
}

start().catch((error) => parentPort?.postMessage({ type: 'broken', message: describe(error) }));

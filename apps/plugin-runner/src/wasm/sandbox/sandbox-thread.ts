import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { CompiledComponent } from '../compile/component-compiler';
import { threadScript } from '../threads/thread-scripts';

/** What a host call answers the guest: a WIT `result` as jco's glue takes it. */
export type HostCallResult = { tag: 'ok'; val?: unknown } | { tag: 'err'; val: unknown };

/** Answers the host calls of one invocation (built per invocation, bound to its event). */
/** A host call (or, with `seq` 0, a log line) of the plugin, as the thread posts it. */
interface HostCallMessage {
  seq: number;
  call: string;
  args: unknown[];
  /** With a host call: the plugin's `log` calls so far in the invocation, dropped ones included. */
  logCalls?: number;
}

export interface HostCallHandler {
  /** `logCalls`: the `log` calls the plugin made so far in this invocation (host calls too). */
  call(name: string, args: unknown[], logCalls?: number): Promise<HostCallResult>;
  log(level: string, message: string): void;
}

export interface SandboxCall {
  /** The event the call serves (project + event id): only its calls share an instance. */
  eventKey: string;
  /** Export of the capability in jco's bindings, e.g. `findingEnricher`. */
  exportName: string;
  /** Operation in jco's bindings, e.g. `createTask`. */
  operation: string;
  args: unknown[];
  deadlineMs: number;
  hostCallTimeoutMs: number;
}

export type SandboxOutcome =
  | { kind: 'ok'; value: unknown; droppedLogs: number }
  | { kind: 'plugin_error'; message: string; detail: unknown; droppedLogs: number }
  | { kind: 'trap'; message: string; droppedLogs: number }
  | { kind: 'no_export'; message: string }
  | { kind: 'deadline' }
  | { kind: 'crashed'; message: string };

/** The thread's instance pool as it reports it: never-used instances, and whether it is busy
 * making more (or zeroing a used instance's memory). */
interface SpareState {
  spares?: number;
  refilling?: boolean;
}

type ThreadMessage =
  | ({ type: 'ready' } & SpareState)
  | ({ type: 'spare' } & SpareState)
  | { type: 'broken'; message: string }
  | ({
      type: 'result';
      id: number;
      ok: true;
      value: unknown;
      droppedLogs: number;
    } & SpareState)
  | ({
      type: 'result';
      id: number;
      ok: false;
      kind: 'plugin_error' | 'trap' | 'no_export';
      message: string;
      detail?: unknown;
      droppedLogs: number;
    } & SpareState);

export interface SandboxThreadOptions {
  /** Log lines one call may send before the thread drops the rest. */
  logLinesPerCall: number;
  /** V8 heap of the thread (the glue's JavaScript; wasm memory is capped separately). */
  heapLimitMb: number;
  /** How long the instance of the last call waits for another call of the same event. */
  eventInstanceIdleMs: number;
  /**
   * PLUGIN_RUNNER_SPARE_INSTANCES: never-used instances the thread keeps ready (made in the
   * background), so a call of a new event does not wait for an instantiation.
   */
  spareInstances: number;
}

/**
 * The parent side of one sandbox thread (threads/sandbox-thread.mjs): one invocation at a
 * time, a hard deadline (the thread is terminated), and the host-call bridge — requests
 * arrive on a message port, the reply is posted back with the request's sequence number and
 * the shared counter is bumped to wake the blocked thread.
 */
export class SandboxThread {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private handler: HostCallHandler | undefined;
  private pending:
    { id: number; resolve: (outcome: SandboxOutcome) => void; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;
  private dead = false;
  /** Never-used instances the thread holds (as last reported), and whether it is making more. */
  private spares = 0;
  private refilling = false;
  private lastEvent: { key: string; until: number } | undefined;
  private readonly exited: Promise<void>;

  constructor(
    compiled: CompiledComponent,
    private readonly options: SandboxThreadOptions,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(threadScript('sandbox-thread'), {
      workerData: {
        glue: compiled.glue,
        modules: compiled.modules,
        memories: compiled.memories,
        signal: this.signal.buffer,
        hostPort: port2,
        logLinesPerCall: options.logLinesPerCall,
        eventInstanceIdleMs: options.eventInstanceIdleMs,
        spareInstances: options.spareInstances,
      },
      transferList: [port2],
      env: {},
      // Not the parent's node options: a runner started with `-r @swc-node/register` (the
      // benchmarks, development from sources) would load the TypeScript compiler into every
      // sandbox thread — a 21 MB instead of a 4 MB heap that every GC of the thread marks
      // (16-20 % more CPU per fresh-instance event with four threads busy; benchmarks.md
      // #plugin-fresh-instance-tail). The thread script needs none.
      execArgv: [],
      stdout: false,
      stderr: false,
      resourceLimits: { maxOldGenerationSizeMb: options.heapLimitMb },
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (message: ThreadMessage) => {
        if (message.type === 'ready') {
          this.worker.off('message', onMessage);
          this.poolState(message);
          resolve();
        } else if (message.type === 'broken') {
          reject(new Error(message.message));
        }
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', (error) => reject(error));
      this.worker.once('exit', (code) => reject(new Error(`sandbox thread exited (${code})`)));
    });
    // Nobody may be left with an unhandled rejection when a thread dies before it is used.
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: ThreadMessage) => this.onThreadMessage(message));
    this.worker.on('error', (error) => this.onDeath(`sandbox thread failed: ${error.message}`));
    this.worker.on('exit', (code) => this.onDeath(`sandbox thread exited (${code})`));
    this.port.on('message', (message: HostCallMessage) => this.onHostCall(message));
  }

  get alive(): boolean {
    return !this.dead;
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  /**
   * How fast this idle thread can start a call for `eventKey`: 3 = it holds that event's
   * instance, 2 = a never-used instance is ready and the thread is idle, 1 = one is ready but
   * the thread is busy for a moment making another (one instantiation or one memory zeroed),
   * 0 = it has none ready.
   */
  readiness(eventKey: string): number {
    if (this.lastEvent?.key === eventKey && this.lastEvent.until > Date.now()) return 3;
    if (this.spares === 0) return 0;
    return this.refilling ? 1 : 2;
  }

  /** Runs one call; every outcome is answered, the deadline by terminating the thread. */
  invoke(call: SandboxCall, handler: HostCallHandler): Promise<SandboxOutcome> {
    if (this.dead) return Promise.resolve({ kind: 'crashed', message: 'sandbox thread is gone' });
    if (this.pending) throw new Error('a sandbox thread runs one invocation at a time');
    const id = this.nextId++;
    this.handler = handler;
    if (this.readiness(call.eventKey) < 3) this.spares = Math.max(0, this.spares - 1);
    this.refilling = true;
    this.lastEvent = { key: call.eventKey, until: Date.now() + this.options.eventInstanceIdleMs };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.finish(id, { kind: 'deadline' });
        void this.terminate();
      }, call.deadlineMs);
      this.pending = { id, resolve, timer };
      this.worker.postMessage({
        type: 'invoke',
        id,
        key: call.eventKey,
        exportName: call.exportName,
        operation: call.operation,
        args: call.args,
        deadlineAt: Date.now() + call.deadlineMs,
        hostCallTimeoutMs: call.hostCallTimeoutMs,
      });
    });
  }

  async terminate(): Promise<void> {
    this.dead = true;
    this.port.close();
    await this.worker.terminate();
    await this.exited;
  }

  private onThreadMessage(message: ThreadMessage): void {
    if (message.type === 'broken') {
      this.onDeath(`sandbox thread cannot make an instance: ${message.message}`);
      void this.terminate();
      return;
    }
    if (message.type === 'spare') {
      this.poolState(message);
      return;
    }
    if (message.type !== 'result') return;
    this.poolState(message);
    if (message.ok) {
      this.finish(message.id, {
        kind: 'ok',
        value: message.value,
        droppedLogs: message.droppedLogs,
      });
      return;
    }
    switch (message.kind) {
      case 'plugin_error':
        this.finish(message.id, {
          kind: 'plugin_error',
          message: message.message,
          detail: message.detail,
          droppedLogs: message.droppedLogs,
        });
        return;
      case 'no_export':
        this.finish(message.id, { kind: 'no_export', message: message.message });
        return;
      case 'trap':
        // A trap poisons the instance and the glue's per-component state: drop the thread.
        this.dead = true;
        this.finish(message.id, {
          kind: 'trap',
          message: message.message,
          droppedLogs: message.droppedLogs,
        });
        void this.terminate();
        return;
    }
  }

  private poolState(state: SpareState): void {
    if (typeof state.spares === 'number') this.spares = state.spares;
    if (typeof state.refilling === 'boolean') this.refilling = state.refilling;
  }

  private finish(id: number, outcome: SandboxOutcome): void {
    if (!this.pending || this.pending.id !== id) return;
    const { resolve, timer } = this.pending;
    clearTimeout(timer);
    this.pending = undefined;
    this.handler = undefined;
    resolve(outcome);
  }

  private onDeath(message: string): void {
    this.dead = true;
    if (this.pending) this.finish(this.pending.id, { kind: 'crashed', message });
  }

  private onHostCall(message: HostCallMessage): void {
    const handler = this.handler;
    if (!handler || !Array.isArray(message.args)) return;
    if (message.call === 'log') {
      handler.log(String(message.args[0]), String(message.args[1]));
      return;
    }
    void handler
      .call(message.call, message.args, typeof message.logCalls === 'number' ? message.logCalls : 0)
      .catch((error: unknown): HostCallResult => ({
        tag: 'err',
        val: { tag: 'unavailable', val: `host call failed: ${(error as Error).message}` },
      }))
      .then((result) => {
        if (this.dead) return;
        this.port.postMessage({ seq: message.seq, result });
        Atomics.add(this.signal, 0, 1);
        Atomics.notify(this.signal, 0);
      });
  }
}

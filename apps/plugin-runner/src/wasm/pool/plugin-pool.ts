import type { CompiledComponent } from '../compile/component-compiler';
import {
  type HostCallHandler,
  type SandboxCall,
  type SandboxOutcome,
  SandboxThread,
  type SandboxThreadOptions,
} from '../sandbox/sandbox-thread';
import type { IdleThreadHolder, SandboxCapacity } from './sandbox-capacity';

export interface PluginPoolOptions {
  /** `PLUGIN_RUNNER_PER_PLUGIN_LIMIT`: threads (= concurrent calls) of this plugin. */
  perPluginLimit: number;
  /** `PLUGIN_RUNNER_KEEP_WARM_SECONDS` in ms: an idle thread is stopped after this long. */
  keepWarmMs: number;
  /** How long a call may wait for a thread before it is answered `overloaded`. */
  queueTimeoutMs: number;
  thread: SandboxThreadOptions;
  /** Called whenever the numbers of idle and busy threads change. */
  onChange?: (idle: number, busy: number) => void;
}

export type PoolOutcome = SandboxOutcome | { kind: 'overloaded'; message: string };

interface Waiter {
  resolve: (thread: SandboxThread | undefined) => void;
  timer: NodeJS.Timeout;
}

/**
 * The warm threads of one plugin version: at most `perPluginLimit`, within the runner-wide
 * capacity, one call per thread at a time. Calls beyond that wait in order. A thread that
 * trapped, crashed or hit a deadline is gone (its slot is freed and a waiter gets a new
 * thread). `drain` lets every accepted call finish, then stops every thread — a reload drains
 * the old version's pool while the new one already serves.
 */
export class PluginPool implements IdleThreadHolder {
  private readonly threads = new Set<SandboxThread>();
  private readonly idle = new Map<SandboxThread, { since: number; timer: NodeJS.Timeout }>();
  private readonly waiters: Waiter[] = [];
  private starting = 0;
  private busy = 0;
  private draining = false;
  /** Why the last thread failed to start (cleared when one starts). */
  private spawnError: string | undefined;
  private drained: (() => void) | undefined;

  constructor(
    private readonly compiled: CompiledComponent,
    private readonly capacity: SandboxCapacity,
    private readonly options: PluginPoolOptions,
  ) {
    capacity.register(this);
  }

  get size(): { idle: number; busy: number; starting: number } {
    return { idle: this.idle.size, busy: this.busy, starting: this.starting };
  }

  /** Starts one thread ahead of the first call when the runner has room without evicting. */
  async prewarm(): Promise<void> {
    if (this.threads.size > 0 || this.capacity.inUse >= this.capacity.limit) return;
    if (!this.capacity.tryReserve(this)) return;
    const thread = await this.spawn();
    if (thread) this.release(thread);
  }

  async run(call: SandboxCall, handler: HostCallHandler): Promise<PoolOutcome> {
    const thread = await this.acquire(call.eventKey);
    if (!thread) {
      return this.spawnError
        ? { kind: 'crashed', message: `a sandbox thread did not start: ${this.spawnError}` }
        : {
            kind: 'overloaded',
            message: `no sandbox thread free within ${this.options.queueTimeoutMs} ms`,
          };
    }
    try {
      return await thread.invoke(call, handler);
    } finally {
      this.release(thread);
    }
  }

  /** Resolves when every accepted call has finished and every thread is stopped. */
  async drain(): Promise<void> {
    this.draining = true;
    if (this.busy > 0 || this.waiters.length > 0 || this.starting > 0) {
      await new Promise<void>((resolve) => (this.drained = resolve));
    }
    this.capacity.unregister(this);
    await Promise.all([...this.threads].map((thread) => this.stop(thread)));
  }

  oldestIdleSince(): number | undefined {
    let oldest: number | undefined;
    for (const { since } of this.idle.values()) {
      if (oldest === undefined || since < oldest) oldest = since;
    }
    return oldest;
  }

  evictOldestIdle(): void {
    let victim: SandboxThread | undefined;
    let oldest = Infinity;
    for (const [thread, { since }] of this.idle) {
      if (since < oldest) {
        oldest = since;
        victim = thread;
      }
    }
    if (victim) void this.stop(victim);
  }

  private async acquire(eventKey: string): Promise<SandboxThread | undefined> {
    const ready = this.pickIdle(eventKey);
    if (ready) return ready;
    if (this.canGrow() && this.capacity.tryReserve(this)) return this.spawn();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          this.checkDrained();
          resolve(undefined);
        }, this.options.queueTimeoutMs),
      };
      this.waiters.push(waiter);
      if (this.threads.size + this.starting < this.options.perPluginLimit) {
        // Waiting for the runner-wide capacity, not for a thread of ours.
        void this.capacity.nextRelease().then(() => this.serveWaiters());
      }
    });
  }

  private pickIdle(eventKey: string): SandboxThread | undefined {
    let best: SandboxThread | undefined;
    let bestScore = -1;
    let bestSince = -1;
    for (const [thread, { since }] of this.idle) {
      const score = thread.readiness(eventKey);
      if (score > bestScore || (score === bestScore && since > bestSince)) {
        best = thread;
        bestScore = score;
        bestSince = since;
      }
    }
    if (best) this.take(best);
    return best;
  }

  private take(thread: SandboxThread): void {
    const entry = this.idle.get(thread);
    if (entry) clearTimeout(entry.timer);
    this.idle.delete(thread);
    this.busy++;
    this.changed();
  }

  private canGrow(): boolean {
    return this.threads.size + this.starting < this.options.perPluginLimit;
  }

  /** A new thread for a reserved slot; undefined (slot released) when it cannot start. */
  private async spawn(): Promise<SandboxThread | undefined> {
    this.starting++;
    const thread = new SandboxThread(this.compiled, this.options.thread);
    try {
      await thread.ready;
      this.spawnError = undefined;
      this.threads.add(thread);
      this.busy++;
      return thread;
    } catch (error) {
      this.spawnError = (error as Error).message;
      await thread.terminate();
      this.capacity.release();
      return undefined;
    } finally {
      this.starting--;
      this.changed();
    }
  }

  private release(thread: SandboxThread): void {
    this.busy--;
    if (!thread.alive) {
      this.threads.delete(thread);
      this.capacity.release();
      this.changed();
      this.serveWaiters();
      this.checkDrained();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      clearTimeout(waiter.timer);
      this.busy++;
      waiter.resolve(thread);
      return;
    }
    if (this.draining) {
      void this.stop(thread);
      this.checkDrained();
      return;
    }
    const timer = setTimeout(() => void this.stop(thread), this.options.keepWarmMs);
    timer.unref();
    this.idle.set(thread, { since: Date.now(), timer });
    this.changed();
  }

  /** Starts threads for waiting calls while this pool and the runner have room. */
  private serveWaiters(): void {
    while (this.waiters.length > 0 && this.canGrow() && this.capacity.tryReserve(this)) {
      const waiter = this.waiters.shift() as Waiter;
      clearTimeout(waiter.timer);
      void this.spawn().then((thread) => {
        waiter.resolve(thread);
        if (!thread) this.checkDrained();
      });
    }
  }

  private async stop(thread: SandboxThread): Promise<void> {
    const entry = this.idle.get(thread);
    if (entry) clearTimeout(entry.timer);
    this.idle.delete(thread);
    if (this.threads.delete(thread)) this.capacity.release();
    this.changed();
    await thread.terminate();
  }

  private checkDrained(): void {
    if (
      this.draining &&
      this.drained &&
      this.busy === 0 &&
      this.waiters.length === 0 &&
      this.starting === 0
    ) {
      const done = this.drained;
      this.drained = undefined;
      done();
    }
  }

  private changed(): void {
    this.options.onChange?.(this.idle.size, this.busy);
  }
}

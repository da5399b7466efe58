import type { Logger } from 'pino';
import type { NativeLimits } from './native-limits';
import {
  NativeProcess,
  type NativeProcessOptions,
  type NativeTools,
  type ProcessExit,
  type StopStep,
} from './native-process';
import type { NativeProgram } from './native-program';

export type NativeChannelState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

/** Why a process was replaced. */
export type RestartReason = 'crash' | 'unhealthy' | 'start_failed';

export type NativeChannelEvent =
  | { kind: 'state'; state: NativeChannelState; pid?: number }
  | { kind: 'restart'; reason: RestartReason; delayMs: number; restartsInWindow: number }
  | { kind: 'recycled'; oldPid?: number; newPid?: number }
  | { kind: 'stopped-process'; pid?: number; step: StopStep };

/** Why no process can take a call. */
export class NativeChannelUnavailable extends Error {
  constructor(readonly reason: 'failed' | 'stopped' | 'deadline') {
    super(
      reason === 'failed'
        ? 'the plugin process failed too often and is stopped (PLUGIN_NATIVE_MAX_RESTARTS)'
        : reason === 'stopped'
          ? 'the plugin is unloaded'
          : 'the plugin process was not ready before the call deadline',
    );
  }
}

export interface NativeChannelOptions {
  pluginId: string;
  program: NativeProgram;
  limits: NativeLimits;
  tools: NativeTools;
  logger: Logger;
  scrub(text: string): string;
  now(): number;
  onEvent(event: NativeChannelEvent): void;
  /** Host calls and egress flags handed to every process of this channel. */
  hostCalls?: NativeProcessOptions['hostCalls'];
  egress?: NativeProcessOptions['egress'];
}

interface Waiter {
  resolve(process: NativeProcess): void;
  reject(error: Error): void;
}

/**
 * One loaded native channel version and its process: restarts a crashed or unhealthy
 * process with back-off (at most PLUGIN_NATIVE_MAX_RESTARTS in
 * PLUGIN_NATIVE_RESTART_WINDOW_SECONDS, then failed), replaces a process older than its
 * lease (start new, check, switch, stop old), and hands calls the ready process.
 */
export class NativeChannel {
  private state: NativeChannelState = 'starting';
  private current?: NativeProcess;
  private spawning?: Promise<NativeProcess>;
  private readonly waiters = new Set<Waiter>();
  private restartTimes: number[] = [];
  private restartTimer?: NodeJS.Timeout;
  private leaseTimer?: NodeJS.Timeout;
  private healthTimer?: NodeJS.Timeout;
  private healthFailures = 0;
  private healthChecking = false;
  private pendingReason?: RestartReason;
  private readonly retiring = new Set<Promise<unknown>>();
  private stopped?: Promise<void>;

  constructor(private readonly options: NativeChannelOptions) {}

  get status(): NativeChannelState {
    return this.state;
  }

  /** The ready process's pid (tests, logs). */
  get pid(): number | undefined {
    return this.state === 'ready' ? this.current?.pid : undefined;
  }

  get busy(): boolean {
    return this.current?.busy ?? false;
  }

  /** Starts the first process; rejects with the start failure (nothing is left running). */
  async start(): Promise<void> {
    this.emitState();
    this.current = await this.spawn();
    this.becomeReady();
  }

  /** The ready process, waiting through a restart until `deadlineAt` at most. */
  ready(deadlineAt: number): Promise<NativeProcess> {
    if (this.state === 'ready' && this.current && !this.current.hasExited) {
      return Promise.resolve(this.current);
    }
    if (this.state === 'failed') return Promise.reject(new NativeChannelUnavailable('failed'));
    if (this.state === 'stopped') return Promise.reject(new NativeChannelUnavailable('stopped'));
    return new Promise((resolveReady, rejectReady) => {
      const timer = setTimeout(
        () => {
          this.waiters.delete(waiter);
          rejectReady(new NativeChannelUnavailable('deadline'));
        },
        Math.max(0, deadlineAt - this.options.now()),
      );
      const waiter: Waiter = {
        resolve: (process) => {
          clearTimeout(timer);
          resolveReady(process);
        },
        reject: (error) => {
          clearTimeout(timer);
          rejectReady(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Closes the current process's stdin (tests: the plugin must exit and is restarted). */
  closeStdinOfCurrent(): void {
    this.current?.closeStdin();
  }

  /** Stops everything: timers, the current process (after its calls), retiring ones. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.state = 'stopped';
      this.clearTimers();
      for (const waiter of this.waiters) waiter.reject(new NativeChannelUnavailable('stopped'));
      this.waiters.clear();
      this.emitState();
      const current = this.current;
      this.current = undefined;
      const work: Array<Promise<unknown>> = [...this.retiring];
      if (current) work.push(this.retire(current));
      if (this.spawning) {
        work.push(
          this.spawning.then(
            (p) => this.retire(p),
            () => undefined,
          ),
        );
      }
      await Promise.all(work);
    })();
    return this.stopped;
  }

  private spawn(): Promise<NativeProcess> {
    const { pluginId, program, limits, tools, logger, scrub, hostCalls, egress } = this.options;
    const spawning = NativeProcess.start({
      pluginId,
      program,
      limits,
      tools,
      logger,
      scrub,
      hostCalls,
      egress,
      onUnexpectedExit: (process, exit) => this.onUnexpectedExit(process, exit),
    });
    this.spawning = spawning;
    return spawning.finally(() => {
      if (this.spawning === spawning) this.spawning = undefined;
    });
  }

  private becomeReady(): void {
    this.state = 'ready';
    this.healthFailures = 0;
    const process = this.current as NativeProcess;
    for (const waiter of this.waiters) waiter.resolve(process);
    this.waiters.clear();
    this.emitState();
    this.scheduleLease();
    this.scheduleHealth();
  }

  private onUnexpectedExit(process: NativeProcess, exit: ProcessExit): void {
    void process.release();
    if (process !== this.current || this.state === 'stopped') return;
    this.current = undefined;
    this.clearTimers();
    const reason = this.pendingReason ?? 'crash';
    this.pendingReason = undefined;
    this.options.logger.warn(
      {
        plugin_id: this.options.pluginId,
        pid: process.pid,
        code: exit.code,
        signal: exit.signal,
        reason,
      },
      'native plugin process exited',
    );
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: RestartReason): void {
    const { limits, now } = this.options;
    const at = now();
    this.restartTimes = this.restartTimes.filter(
      (t) => t > at - limits.restartWindowSeconds * 1000,
    );
    if (this.restartTimes.length >= limits.maxRestarts) {
      this.state = 'failed';
      for (const waiter of this.waiters) waiter.reject(new NativeChannelUnavailable('failed'));
      this.waiters.clear();
      this.options.logger.error(
        { plugin_id: this.options.pluginId, restarts: this.restartTimes.length },
        'native plugin failed: too many restarts in the window; not restarted again',
      );
      this.emitState();
      return;
    }
    const delayMs = Math.min(
      limits.restartBackoffInitialMs * 2 ** this.restartTimes.length,
      limits.restartBackoffMaxMs,
    );
    this.restartTimes.push(at);
    this.state = 'restarting';
    this.emitState();
    this.options.onEvent({
      kind: 'restart',
      reason,
      delayMs,
      restartsInWindow: this.restartTimes.length,
    });
    this.restartTimer = setTimeout(() => void this.restart(), delayMs);
    this.restartTimer.unref();
  }

  private async restart(): Promise<void> {
    this.restartTimer = undefined;
    if (this.state !== 'restarting') return;
    let process: NativeProcess;
    try {
      process = await this.spawn();
    } catch (error) {
      if (this.state !== 'restarting') return;
      this.options.logger.warn(
        { plugin_id: this.options.pluginId, err: this.options.scrub((error as Error).message) },
        'native plugin restart failed',
      );
      this.scheduleRestart('start_failed');
      return;
    }
    if (this.state !== 'restarting') {
      await this.retire(process);
      return;
    }
    this.current = process;
    this.becomeReady();
  }

  private scheduleLease(): void {
    const { leaseSeconds } = this.options.limits;
    if (leaseSeconds <= 0) return;
    clearTimeout(this.leaseTimer);
    this.leaseTimer = setTimeout(() => void this.recycle(), leaseSeconds * 1000);
    this.leaseTimer.unref();
  }

  /** The lease ran out: start a new process, check it, switch, stop the old one. */
  private async recycle(): Promise<void> {
    this.leaseTimer = undefined;
    if (this.state !== 'ready') return;
    let next: NativeProcess;
    try {
      next = await this.spawn();
    } catch (error) {
      this.options.logger.warn(
        { plugin_id: this.options.pluginId, err: this.options.scrub((error as Error).message) },
        'native plugin lease renewal failed; the old process keeps serving',
      );
      if (this.state === 'ready') this.scheduleLease();
      return;
    }
    const state = this.state as NativeChannelState; // may have changed while spawning
    if (state === 'stopped' || state === 'failed') {
      await this.retire(next);
      return;
    }
    const old = this.current;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.current = next;
    this.options.onEvent({ kind: 'recycled', oldPid: old?.pid, newPid: next.pid });
    this.becomeReady();
    if (old) void this.retire(old);
  }

  private scheduleHealth(): void {
    const { healthIntervalMs } = this.options.limits;
    if (healthIntervalMs <= 0 || this.healthTimer) return;
    this.healthTimer = setInterval(() => void this.healthCheck(), healthIntervalMs);
    this.healthTimer.unref();
  }

  /** Two failed checks in a row: the process is killed and restarted (reason `unhealthy`). */
  private async healthCheck(): Promise<void> {
    const process = this.current;
    if (this.state !== 'ready' || !process || this.healthChecking) return;
    this.healthChecking = true;
    let serving = false;
    try {
      serving =
        (await process.check(Math.min(2000, this.options.limits.healthIntervalMs))) === 'SERVING';
    } catch {
      serving = false;
    } finally {
      this.healthChecking = false;
    }
    if (process !== this.current || this.state !== 'ready') return;
    this.healthFailures = serving ? 0 : this.healthFailures + 1;
    if (this.healthFailures >= 2) {
      this.pendingReason = 'unhealthy';
      process.killUnexpectedly();
    }
  }

  private retire(process: NativeProcess): Promise<void> {
    const retiring = process.stop().then(
      (step) => this.options.onEvent({ kind: 'stopped-process', pid: process.pid, step }),
      () => undefined,
    );
    this.retiring.add(retiring);
    return retiring.finally(() => this.retiring.delete(retiring));
  }

  private clearTimers(): void {
    clearTimeout(this.restartTimer);
    clearTimeout(this.leaseTimer);
    clearInterval(this.healthTimer);
    this.restartTimer = undefined;
    this.leaseTimer = undefined;
    this.healthTimer = undefined;
  }

  private emitState(): void {
    this.options.onEvent({ kind: 'state', state: this.state, pid: this.pid });
  }
}

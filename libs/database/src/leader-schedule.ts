import { loggableError } from '@platform/logging';
import { LeaderLock } from './leader-lock';

/** Work a worker repeats; only the leading replica runs it. */
export interface PeriodicTask {
  readonly name: string;
  readonly everyMs: number;
  run(): Promise<void>;
}

/** Satisfied by Nest's `Logger` and by pino-style loggers wrapped to this shape. */
export interface ScheduleLogger {
  log(message: string): void;
  error(message: string): void;
}

/**
 * Runs periodic tasks on the replica holding the leader lock, so N worker replicas run each
 * task once per period (and API replicas, which never start a schedule, not at all). Every
 * tick asks for the lock again: a follower takes over when the leader stops or dies. A task
 * never overlaps itself; a failed run is logged and retried at the next tick.
 */
export class LeaderSchedule {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly busy = new Set<string>();
  private stopped = false;

  constructor(
    private readonly lock: LeaderLock,
    private readonly tasks: readonly PeriodicTask[],
    private readonly logger: ScheduleLogger,
  ) {}

  start(): void {
    for (const task of this.tasks) {
      this.timers.push(setInterval(() => this.track(this.tick(task)), task.everyMs));
    }
  }

  /** Stops the timers, waits for running tasks and hands leadership over. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await Promise.all(this.running);
    await this.lock.release();
  }

  /** One tick of a task: runs it when this replica leads and it is not already running. */
  async tick(task: PeriodicTask): Promise<boolean> {
    if (this.stopped || this.busy.has(task.name)) return false;
    this.busy.add(task.name);
    try {
      if (!(await this.lock.acquire())) return false;
      await task.run();
      return true;
    } catch (error) {
      this.logger.error(`${task.name} failed: ${loggableError(error).message}`);
      return false;
    } finally {
      this.busy.delete(task.name);
    }
  }

  private track(run: Promise<unknown>): void {
    const settled = run.then(() => undefined);
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
  }
}

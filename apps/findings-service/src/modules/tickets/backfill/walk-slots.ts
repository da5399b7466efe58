/**
 * Findings under way across every walk of one worker process: each holds a database connection
 * for its transaction (and briefly a second one when the runner's host call asks the service),
 * so two backfills at once (the queue's concurrency 2) share the slots instead of doubling them.
 */
export class WalkSlots {
  private used = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Resolves once a slot is free; the answer gives it back (call it exactly once). */
  async take(): Promise<() => void> {
    if (this.used >= this.size) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.used += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.queue.shift();
      if (next) next();
      else this.used -= 1;
    };
  }
}

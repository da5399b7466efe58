/** A pool that can give back an idle thread when another plugin needs the room. */
export interface IdleThreadHolder {
  /** When its longest-idle thread became idle; undefined when it has none. */
  oldestIdleSince(): number | undefined;
  /** Terminates that thread (its slot is released through `SandboxCapacity.release`). */
  evictOldestIdle(): void;
}

/**
 * The runner-wide bound on sandbox threads (`PLUGIN_RUNNER_GLOBAL_LIMIT`), shared by every
 * plugin's pool. When every slot is taken, an idle thread of another plugin (the one idle
 * longest) is evicted; when none is idle the request waits for a release.
 */
export class SandboxCapacity {
  private used = 0;
  private readonly holders = new Set<IdleThreadHolder>();
  private readonly waiters: Array<() => void> = [];

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.used;
  }

  register(holder: IdleThreadHolder): void {
    this.holders.add(holder);
  }

  unregister(holder: IdleThreadHolder): void {
    this.holders.delete(holder);
  }

  /** A slot now, by eviction if need be; false when every thread is busy. */
  tryReserve(requester: IdleThreadHolder): boolean {
    if (this.used < this.limit) {
      this.used++;
      return true;
    }
    let victim: IdleThreadHolder | undefined;
    let since = Infinity;
    for (const holder of this.holders) {
      if (holder === requester) continue;
      const idle = holder.oldestIdleSince();
      if (idle !== undefined && idle < since) {
        since = idle;
        victim = holder;
      }
    }
    if (!victim) return false;
    victim.evictOldestIdle(); // releases its slot synchronously
    this.used++;
    return true;
  }

  release(): void {
    this.used = Math.max(0, this.used - 1);
    // Every waiter looks again (a pool may also be served by its own released thread).
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves at the next release (the caller tries again). */
  nextRelease(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

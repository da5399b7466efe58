import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * One kind of figures a collector reads (one query, one queue API call): `read` fetches them
 * and returns what sets the metrics, so nothing changes unless the whole read succeeded.
 */
export interface CollectionKind {
  /** The `kind` label of the failure counter (`findings`, `queue_jobs`, ...). */
  readonly name: string;
  read(): Promise<() => void>;
}

export interface PeriodicCollectorOptions {
  registry: Registry;
  kinds: CollectionKind[];
  intervalMs: number;
  /** Metric names: last fully successful collection (gauge, Unix seconds), failures by kind. */
  names: { lastSuccess: string; failures: string };
  /**
   * A read that takes longer fails (default: the interval, at most 15 s); its late answer is
   * dropped. Stopping ends the wait at once.
   */
  timeoutMs?: number;
  /** Told about each failed kind (logging); the figures of that kind stay as they were. */
  onFailure?: (kind: string, error: unknown) => void;
  now?: () => number;
}

/**
 * Business figures collected on a timer, never on a scrape (a scrape stays cheap however large
 * the tables). Every `intervalMs` all kinds are read in parallel; a kind that fails keeps its
 * previous values and counts one failure; the success timestamp moves only when every kind
 * succeeded. Runs never overlap: a tick while one runs is skipped.
 */
export class PeriodicCollector {
  private readonly lastSuccess: Gauge;
  private readonly failures: Counter<'kind'>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;
  private readonly stopping = new AbortController();

  constructor(private readonly options: PeriodicCollectorOptions) {
    const { registry, names } = options;
    this.lastSuccess = new Gauge({
      name: names.lastSuccess,
      help: 'Unix time of the last collection in which every query succeeded',
      registers: [registry],
    });
    this.failures = new Counter({
      name: names.failures,
      help: 'Failed collections by query kind (the figures of that kind kept their old values)',
      labelNames: ['kind'],
      registers: [registry],
    });
    for (const kind of options.kinds) this.failures.inc({ kind: kind.name }, 0);
  }

  /** Collects now, then every `intervalMs`. */
  start(): void {
    if (this.timer) return;
    void this.collect();
    this.timer = setInterval(() => void this.collect(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One collection (the running one when called during it); true when every kind succeeded. */
  collect(): Promise<boolean> {
    this.running ??= this.collectAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops the timer and waits for a running collection. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.running;
  }

  private async collectAll(): Promise<boolean> {
    const timeoutMs = this.options.timeoutMs ?? Math.min(this.options.intervalMs, 15_000);
    const results = await Promise.allSettled(
      this.options.kinds.map((kind) => this.bounded(kind.read(), timeoutMs)),
    );
    let ok = true;
    results.forEach((result, i) => {
      const kind = this.options.kinds[i].name;
      if (result.status === 'fulfilled') {
        result.value();
      } else {
        ok = false;
        this.failures.inc({ kind });
        this.options.onFailure?.(kind, result.reason);
      }
    });
    if (ok) this.lastSuccess.set((this.options.now ?? Date.now)() / 1000);
    return ok;
  }

  /** `read`, failed after `timeoutMs` or as soon as the collector stops. */
  private bounded<T>(read: Promise<T>, timeoutMs: number): Promise<T> {
    const signal = this.stopping.signal;
    if (signal.aborted) return Promise.reject(new Error('collector stopped'));
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
      onAbort = () => reject(new Error('collector stopped'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    read.catch(() => undefined); // a late failure after the limit is not unhandled
    return Promise.race([read, limit]).finally(() => {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    });
  }
}

/** Replaces every value of a labelled gauge at once (label sets that vanished go away). */
export function replaceGaugeValues<L extends string>(
  gauge: Gauge<L>,
  samples: { labels: Partial<Record<L, string>>; value: number }[],
): void {
  gauge.reset();
  for (const s of samples) gauge.set(s.labels, s.value);
}

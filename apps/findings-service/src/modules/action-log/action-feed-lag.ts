import type { Logger } from '@nestjs/common';
import { Gauge, type Registry } from 'prom-client';
import type { FeedConsumer } from './action-feed';

/** A feed held back longer than this draws one warning (until it moves again). */
export const FEED_LAG_WARNING_SECONDS = 300;

export const FEED_LAG_METRIC = 'findsvc_action_feed_lag_seconds';

/**
 * `findsvc_action_feed_lag_seconds{consumer}`: how long a consumer's feed horizon (the `upper`
 * of its reads) has not moved. Each read of a consumer advances its own cursor, so the horizon
 * moves on every tick unless a long-running transaction somewhere holds the snapshot back; the
 * feed is then delayed (never lossy), and past FEED_LAG_WARNING_SECONDS a warning names it.
 */
export class FeedLagMeter {
  private readonly gauge: Gauge<'consumer'>;
  private last: { upper: string; since: number } | null = null;
  private warned = false;

  constructor(
    private readonly consumer: FeedConsumer,
    registry: Registry,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly now: () => number = Date.now,
  ) {
    this.gauge =
      (registry.getSingleMetric(FEED_LAG_METRIC) as Gauge<'consumer'> | undefined) ??
      new Gauge({
        name: FEED_LAG_METRIC,
        help: 'How long the action-log feed horizon of a consumer has not moved (a long transaction holds it)',
        labelNames: ['consumer'],
        registers: [registry],
      });
  }

  /** Records the `upper` of a read; answers the lag in seconds. */
  observe(upper: string): number {
    const now = this.now();
    if (this.last?.upper !== upper) {
      this.last = { upper, since: now };
      this.warned = false;
    }
    const seconds = (now - this.last.since) / 1000;
    this.gauge.set({ consumer: this.consumer }, seconds);
    if (seconds > FEED_LAG_WARNING_SECONDS && !this.warned) {
      this.warned = true;
      this.logger.warn(
        `the action-log feed of ${this.consumer} has not moved for ${Math.round(seconds)} s: a long-running transaction holds it back (${this.consumer} work is delayed, not lost)`,
      );
    }
    return seconds;
  }
}

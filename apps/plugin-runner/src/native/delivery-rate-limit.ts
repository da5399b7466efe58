/**
 * Deliveries per minute per plugin (PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE): a token bucket
 * holding at most one minute's worth, refilled continuously.
 */
export class DeliveryRateLimit {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {
    this.tokens = perMinute;
    this.last = now();
  }

  /** Takes one delivery; false when the minute's budget is used up. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(
      this.perMinute,
      this.tokens + ((now - this.last) * this.perMinute) / 60_000,
    );
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

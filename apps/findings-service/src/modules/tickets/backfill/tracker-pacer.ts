import type { ProviderRateLimit } from '../ticket-provider.gateway';

/**
 * Waits of a rate limit: the seconds asked, between a floor and RATE_LIMIT_MAX_WAIT_SECONDS.
 * The floor is one token of the tracker's own rate when it told it, else a whole second.
 */
export const RATE_LIMIT_MAX_WAIT_SECONDS = 60;

/** Rate-limit answers that end within this much of a pause under way join it. */
const SAME_PAUSE_MS = 250;

interface Pause {
  until: number;
  done: Promise<void>;
}

/**
 * The pace of one backfill's walk at its tracker (shared by the walk's lanes):
 *
 * - `limited` — a rate-limit answer pauses the **whole walk** for the `Retry-After` asked (the
 *   answers of the calls that were already under way join that pause), and, when the tracker
 *   told its refill rate, paces every later call at that rate;
 * - `turn` — before each call: waits out a pause, then the call's slot at the learnt rate
 *   (none before the tracker refused anything: the walk goes as fast as its lanes).
 *
 * `wait` is the runner's (unit tests replace it); `now` a monotonic clock in ms.
 */
export class TrackerPacer {
  private pause: Pause | undefined;
  /** ms between two calls at the tracker's rate; 0 = not paced. */
  private intervalMs = 0;
  private nextSlot = 0;

  constructor(
    private readonly wait: (ms: number) => Promise<void>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The tracker's rate this walk keeps to (requests/s), null while unpaced. */
  get perSecond(): number | null {
    return this.intervalMs > 0 ? 1000 / this.intervalMs : null;
  }

  async turn(): Promise<void> {
    await this.paused();
    if (this.intervalMs === 0) return;
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.wait(slot - now);
    await this.paused(); // a pause that began while this call waited for its slot
  }

  private async paused(): Promise<void> {
    for (let pause = this.pause; pause; pause = this.pause) await pause.done;
  }

  /** A rate-limit answer: pauses the walk (unless a pause already covers it); learns the rate. */
  limited(answer: ProviderRateLimit): void {
    if (answer.perSecond !== null && answer.perSecond > 0)
      this.intervalMs = 1000 / answer.perSecond;
    const floor = this.intervalMs > 0 ? this.intervalMs : 1000;
    const ms = Math.min(Math.max(answer.seconds * 1000, floor), RATE_LIMIT_MAX_WAIT_SECONDS * 1000);
    const until = this.now() + ms;
    const current = this.pause;
    if (current && current.until >= until - SAME_PAUSE_MS) return;
    const extra = current ? until - current.until : ms;
    const pause: Pause = {
      until,
      done: (current?.done ?? Promise.resolve())
        .then(() => this.wait(extra))
        .then(() => {
          if (this.pause === pause) this.pause = undefined;
        }),
    };
    this.pause = pause;
  }
}

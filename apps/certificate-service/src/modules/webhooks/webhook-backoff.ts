/** First retry after about this long; each later one waits twice as long. */
export const RETRY_BASE_MS = 30_000;
/** No wait longer than this. */
export const RETRY_MAX_MS = 6 * 3600_000;

/**
 * Wait before the attempt after attempt number `attempt` (1-based): exponential
 * (30 s, 1 min, 2 min, 4 min, 8 min, ... capped at 6 h) with "full jitter" in the upper half,
 * so receivers that came back are not hit by every queued delivery at the same second.
 */
export function retryDelayMs(
  attempt: number,
  baseMs = RETRY_BASE_MS,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(RETRY_MAX_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Exponential back-off with jitter: attempt n waits between c/2 and c, c = min(cap, base * 2^n). */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000 };

export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  // Never below half the ceiling: a burst of near-zero waits would hammer a recovering service.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

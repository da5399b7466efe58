/**
 * The SCEP poller's schedule and retry budget (docs/certificate-service/scep.md): a record is
 * polled every `CERTSVC_SCEP_POLL_SECONDS` for its first `steadyPolls` polls, then with the
 * interval doubling per poll up to `maxIntervalMs`. It ends `failed`
 * (`scep_retry_budget_exhausted`) after `maxAttempts` polls or `maxAgeMs` after approval,
 * whichever comes first; `last_error` keeps the last reason.
 */
export interface ScepRetryBudget {
  readonly steadyPolls: number;
  readonly maxIntervalMs: number;
  readonly maxAttempts: number;
  readonly maxAgeMs: number;
}

export const SCEP_RETRY_BUDGET: ScepRetryBudget = {
  steadyPolls: 10,
  maxIntervalMs: 60 * 60_000,
  maxAttempts: 200,
  maxAgeMs: 7 * 24 * 60 * 60_000,
};

/** A claimed record is not handed out again for this long (a poller that died mid-poll). */
export const SCEP_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * Records claimed at a time (a run claims again until nothing is due): small enough that a
 * claimed batch is polled well within the lease even at the 15 s timeout of each call.
 */
export const SCEP_POLL_BATCH = 10;

/** Records one run polls at most (the rest wait for the next run). */
export const SCEP_POLL_RUN_MAX = 500;

/** Delay before the poll after `attempts` polls. */
export function nextPollDelayMs(attempts: number, pollMs: number, budget: ScepRetryBudget): number {
  const doublings = Math.max(0, attempts - budget.steadyPolls + 1);
  if (doublings === 0) return pollMs;
  return Math.min(pollMs * 2 ** Math.min(doublings, 30), Math.max(pollMs, budget.maxIntervalMs));
}

/** True once a record has used its budget. */
export function budgetExhausted(
  attempts: number,
  createdAt: Date,
  now: Date,
  budget: ScepRetryBudget,
): boolean {
  return attempts >= budget.maxAttempts || now.getTime() - createdAt.getTime() >= budget.maxAgeMs;
}

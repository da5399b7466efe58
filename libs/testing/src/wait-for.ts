import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForOptions {
  /** Give up after this long; keep it below the test's own timeout (default 10 s). */
  timeoutMs?: number;
  /** Pause between attempts (default 50 ms). */
  intervalMs?: number;
  /** What is awaited, for the time-out message. */
  what?: string;
}

/** Thrown by an attempt to stop waiting at once (the awaited state can no longer come). */
export class WaitAborted extends Error {
  override name = 'WaitAborted';
}

export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
}

const unsettled = Symbol('unsettled');

function describeFailure(failure: unknown): string {
  if (failure === undefined) return 'nothing (no attempt settled)';
  if (failure instanceof Error) return failure.message;
  return String(failure);
}

/**
 * Repeats `attempt` (an assertion, or a probe that throws while the awaited state is not
 * there yet) until it returns without throwing, and returns its value. On time-out the error
 * carries the last failure, so the message shows what was last seen.
 */
export async function waitFor<T>(
  attempt: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 50, what = 'the awaited condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let attempts = 0;
  let last: unknown;
  for (;;) {
    attempts += 1;
    const outcome = await settleBefore(deadline, attempt);
    if (outcome.done) return outcome.value;
    if (outcome.error instanceof WaitAborted) throw outcome.error;
    const hung = outcome.error === unsettled;
    if (!hung) last = outcome.error;
    if (hung || Date.now() >= deadline) {
      throw new WaitTimeoutError(
        `${what} not reached within ${timeoutMs} ms (${attempts} attempts` +
          `${hung ? ', the last one still running' : ''}); last seen: ${describeFailure(last)}`,
        { cause: last },
      );
    }
    await sleep(Math.min(intervalMs, Math.max(deadline - Date.now(), 0)));
  }
}

type Outcome<T> = { done: true; value: T } | { done: false; error: unknown };

/** One attempt, given up (not cancelled) when it has not settled by the deadline. */
async function settleBefore<T>(
  deadline: number,
  attempt: () => T | Promise<T>,
): Promise<Outcome<T>> {
  const controller = new AbortController();
  const run = (async (): Promise<Outcome<T>> => {
    try {
      return { done: true, value: await attempt() };
    } catch (error) {
      return { done: false, error };
    }
  })();
  const expiry = sleep(Math.max(deadline - Date.now(), 0), undefined, {
    signal: controller.signal,
  }).then(
    (): Outcome<T> => ({ done: false, error: unsettled }),
    (): Outcome<T> => ({ done: false, error: unsettled }),
  );
  try {
    return await Promise.race([run, expiry]);
  } finally {
    controller.abort();
  }
}

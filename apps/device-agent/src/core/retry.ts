import { ApiError, NetworkError } from '../api/api-errors';
import { backoffDelay } from './backoff';
import type { AgentContext } from './context';
import { AgentExit, ExitCode } from './exit-codes';

/**
 * Runs `call` until it answers, retrying what may pass later (no connection, 5xx, 429) with
 * back-off and jitter for at most `ctx.retryForMs`; then exit 4 (`unreachable`). A refusal
 * (another 4xx) is thrown at once as the ApiError for the caller to map.
 */
export async function withRetry<T>(
  ctx: AgentContext,
  what: string,
  call: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  let waited = 0;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!isTransient(error)) throw error;
      const elapsed = Math.max(Date.now() - started, waited);
      const fromServer = error instanceof ApiError ? error.retryAfterSeconds : undefined;
      const delay = Math.max(
        backoffDelay(ctx.backoff, attempt, ctx.random),
        (fromServer ?? 0) * 1000,
      );
      if (elapsed + delay > ctx.retryForMs) {
        throw new AgentExit(
          ExitCode.unreachable,
          `${what}: the certificate service is unreachable (${(error as Error).message}); gave up after ${attempt + 1} attempts`,
        );
      }
      ctx.logger.warn('certificate service unreachable, retrying', {
        what,
        attempt: attempt + 1,
        retry_in_ms: delay,
        cause: (error as Error).message,
      });
      await ctx.clock.sleep(delay);
      waited += delay;
    }
  }
}

export function isTransient(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.retryable);
}

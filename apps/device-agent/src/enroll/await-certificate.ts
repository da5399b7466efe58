import type { AgentCertificate } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import { backoffDelay } from '../core/backoff';
import type { AgentContext } from '../core/context';
import { withRetry } from '../core/retry';

export type AwaitOutcome =
  | { kind: 'issued'; body: AgentCertificate; etag: string }
  | { kind: 'terminal'; status: string }
  | { kind: 'still_pending'; status: string };

/**
 * Polls `status` of a request until it is decided, waiting with back-off and jitter between polls
 * (2 s doubling up to the cap, 5 min by default), for at most `waitMs` (0: until decided).
 * Issued: fetches the certificate. Another terminal status: returns it.
 */
export async function awaitCertificate(
  ctx: AgentContext,
  client: CertsvcClient,
  requestId: string,
  secret: string,
  waitMs: number,
): Promise<AwaitOutcome> {
  const started = Date.now();
  let waited = 0;
  for (let attempt = 0; ; attempt += 1) {
    const answer = await withRetry(ctx, 'request status', () => client.status(requestId, secret));
    if (answer.status === 'issued') {
      const delivered = await withRetry(ctx, 'certificate download', () =>
        client.certificate(requestId, secret),
      );
      if (delivered) return { kind: 'issued', body: delivered.body, etag: delivered.etag };
    } else if (answer.terminal) {
      return { kind: 'terminal', status: answer.status };
    }
    const delay = backoffDelay(ctx.backoff, attempt, ctx.random);
    const elapsed = Math.max(Date.now() - started, waited);
    if (waitMs > 0 && elapsed + delay > waitMs) {
      return { kind: 'still_pending', status: answer.status };
    }
    ctx.logger.debug('request not decided yet', {
      request_id: requestId,
      status: answer.status,
      next_poll_ms: delay,
    });
    await ctx.clock.sleep(delay);
    waited += delay;
  }
}

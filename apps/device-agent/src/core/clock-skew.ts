import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from './context';

/** Beyond this difference from the service's clock the agent warns (docs/agent.md, "Clock"). */
export const CLOCK_SKEW_WARN_SECONDS = 300;

/**
 * Compares the agent's clock with the `Date` of the service's last answer (whole seconds, so
 * only differences over a few seconds mean anything) and warns when they differ by more than
 * five minutes. The agent changes no clock: it says so, and renews by its own clock.
 */
export function checkClockSkew(ctx: AgentContext, client: CertsvcClient): number | undefined {
  if (!client.lastServerDate) return undefined;
  const skew = Math.round((ctx.clock.now().getTime() - client.lastServerDate.getTime()) / 1000);
  if (Math.abs(skew) > CLOCK_SKEW_WARN_SECONDS) {
    ctx.logger.warn('the clock differs from the certificate service; fix the time sync (NTP)', {
      skew_seconds: skew,
      service_time: client.lastServerDate.toISOString(),
    });
  }
  return skew;
}

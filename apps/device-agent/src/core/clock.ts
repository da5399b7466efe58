/** Time and waiting, injectable for tests (and for a clock the operator knows to be off). */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

/**
 * The system clock shifted by `offsetSeconds` (`CERTSVC_AGENT_CLOCK_OFFSET_SECONDS`): tests move
 * the agent's notion of "now" to reach the renewal window without waiting years.
 */
export function systemClock(offsetSeconds = 0): Clock {
  return {
    now: () => new Date(Date.now() + offsetSeconds * 1000),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

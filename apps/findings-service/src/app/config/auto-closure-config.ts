import type { EnvReader } from '@platform/config';

/**
 * Automatic closure of fixed findings and scanner re-verification
 * (docs/findings-service/auto-closure.md).
 */
export interface AutoClosureConfig {
  /** FEATURE_AUTO_VERIFY_FIXES (default false): the global switch, first of the three. */
  enabled: boolean;
  /** FEATURE_MANUAL_REVERIFICATION (default false): the manual re-verification routes (404 when off). */
  manualReverification: boolean;
  /** AUTO_CLOSE_ATTEMPTS (default 3): absence evaluations within one check. */
  attempts: number;
  /** AUTO_CLOSE_ATTEMPT_INTERVAL_MS (default 30 000): time between two attempts of a check. */
  attemptIntervalMs: number;
  /** AUTO_CLOSE_CONSECUTIVE_CHECKS (default 3): consecutive `absent` checks a closure needs. */
  consecutiveChecks: number;
  /** AUTO_CLOSE_MAX_PER_HOUR (default 200): automatic closures per project in any hour. */
  maxPerHour: number;
  /**
   * SCANNER_CALLBACK_MAX_SKEW_SECONDS (default 300): how far a callback's timestamp may be from
   * the service's clock; also how long a seen signature is remembered against replay.
   */
  callbackMaxSkewSeconds: number;
  /** SCANNER_CALLBACK_ROTATION_WINDOW_HOURS (default 24): both keys are valid this long after a rotation. */
  rotationWindowHours: number;
  /** Key for sealing the callback keys' and endpoints' secrets (the plugin secrets' key). */
  secretsKey: string;
}

export function readAutoClosureConfig(r: EnvReader, secretsKey: string): AutoClosureConfig {
  return {
    enabled: r.bool('FEATURE_AUTO_VERIFY_FIXES', false),
    manualReverification: r.bool('FEATURE_MANUAL_REVERIFICATION', false),
    attempts: r.int('AUTO_CLOSE_ATTEMPTS', 3, { min: 1, max: 10 }),
    attemptIntervalMs: r.int('AUTO_CLOSE_ATTEMPT_INTERVAL_MS', 30_000, { min: 0, max: 3_600_000 }),
    consecutiveChecks: r.int('AUTO_CLOSE_CONSECUTIVE_CHECKS', 3, { min: 1, max: 100 }),
    maxPerHour: r.int('AUTO_CLOSE_MAX_PER_HOUR', 200, { min: 1, max: 1_000_000 }),
    callbackMaxSkewSeconds: r.int('SCANNER_CALLBACK_MAX_SKEW_SECONDS', 300, { min: 10, max: 3600 }),
    rotationWindowHours: r.int('SCANNER_CALLBACK_ROTATION_WINDOW_HOURS', 24, {
      min: 1,
      max: 24 * 90,
    }),
    secretsKey,
  };
}

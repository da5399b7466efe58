/**
 * What a delivery attempt's answer means for the delivery row (docs/findings-service/
 * notifications.md#delivery-outcomes): delivered, failed for good, retried with back-off, or
 * put back without counting an attempt (the runner's rate limit).
 */
export type DeliveryOutcome =
  | { kind: 'delivered'; result: Record<string, unknown> | null }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'retry'; code: string; message: string; retryAfterSeconds: number | null }
  | { kind: 'overloaded'; message: string };

/** A runner answer as PluginRunnerClient.invoke gives it. */
export type RunnerAnswer =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; message: string; detail?: unknown } };

/** Refusals of the runner that no retry changes. */
const PERMANENT_REFUSALS = new Set(['secret_unavailable', 'ticketing_provider_native']);
/** Answer codes that no retry changes. */
const PERMANENT_CODES = new Set(['invalid_payload', 'unsupported_operation']);

/** Error texts stored on the row are cut to this many characters. */
export const DELIVERY_ERROR_MAX = 1_000;

const object = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export function cutMessage(message: string): string {
  const chars = [...message];
  return chars.length <= DELIVERY_ERROR_MAX
    ? message
    : `${chars.slice(0, DELIVERY_ERROR_MAX - 1).join('')}…`;
}

/** A target's `Retry-After` as the plugin passed it (`result.retry_after_seconds`). */
function retryAfter(detail: Record<string, unknown> | null): number | null {
  const result = object(detail?.['result']);
  const seconds = result?.['retry_after_seconds'] ?? detail?.['retry_after_seconds'];
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? Math.min(seconds, 86_400)
    : null;
}

/** Maps the runner's answer (§1.5 outcome table). */
export function deliveryOutcome(answer: RunnerAnswer): DeliveryOutcome {
  if (answer.ok) return { kind: 'delivered', result: object(answer.value) };
  const { code } = answer.error;
  const message = cutMessage(answer.error.message);
  const detail = object(answer.error.detail);
  if (code === 'overloaded') return { kind: 'overloaded', message };
  if (code === 'plugin_error') {
    if (detail?.['outcome'] === 'rejected' || detail?.['retryable'] === false) {
      return { kind: 'failed', code: 'rejected', message };
    }
    return { kind: 'retry', code, message, retryAfterSeconds: retryAfter(detail) };
  }
  if (code === 'refused') {
    const reason = typeof detail?.['reason'] === 'string' ? detail['reason'] : '';
    if (PERMANENT_REFUSALS.has(reason)) return { kind: 'failed', code: reason, message };
    return { kind: 'retry', code: reason || code, message, retryAfterSeconds: null };
  }
  if (PERMANENT_CODES.has(code)) return { kind: 'failed', code, message };
  return { kind: 'retry', code, message, retryAfterSeconds: null };
}

/** A runner that could not be reached or answered nothing usable: retried. */
export function unreachableOutcome(code: string, message: string): DeliveryOutcome {
  return { kind: 'retry', code, message: cutMessage(message), retryAfterSeconds: null };
}

/**
 * Seconds until the next attempt after `attempts` attempts: base × 2^(attempts−1), at most 1 h,
 * ± 20 % jitter; a target's Retry-After wins when larger.
 */
export function backoffSeconds(
  attempts: number,
  baseSeconds: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number {
  const plain = Math.min(baseSeconds * 2 ** Math.max(0, attempts - 1), 3_600);
  const jittered = plain * (0.8 + 0.4 * random());
  return Math.max(jittered, retryAfterSeconds ?? 0);
}

/** The delay of an `overloaded` answer: 1–3 s, not an attempt. */
export function overloadedDelaySeconds(random: () => number = Math.random): number {
  return 1 + 2 * random();
}

import type { EnvReader } from '@platform/config';
import { DEFAULT_NATIVE_LIMITS, type NativeLimits } from '../../native/native-limits';

/** Reads the PLUGIN_NATIVE_* limits (docs/plugins/native.md); problems go to the reader. */
export function readNativeLimits(read: EnvReader): NativeLimits {
  const d = DEFAULT_NATIVE_LIMITS;
  const limits: NativeLimits = {
    memoryLimitMb: read.int('PLUGIN_NATIVE_MEMORY_LIMIT_MB', d.memoryLimitMb, {
      min: 16,
      max: 65_536,
    }),
    handshakeTimeoutMs: read.int('PLUGIN_NATIVE_HANDSHAKE_TIMEOUT_MS', d.handshakeTimeoutMs, {
      min: 100,
      max: 120_000,
    }),
    callTimeoutMs: read.int('PLUGIN_NATIVE_CALL_TIMEOUT_MS', d.callTimeoutMs, {
      min: 10,
      max: 600_000,
    }),
    stopTimeoutMs: read.int('PLUGIN_NATIVE_STOP_TIMEOUT_MS', d.stopTimeoutMs, {
      min: 10,
      max: 60_000,
    }),
    maxRestarts: read.int('PLUGIN_NATIVE_MAX_RESTARTS', d.maxRestarts, { min: 0, max: 1000 }),
    restartWindowSeconds: read.int('PLUGIN_NATIVE_RESTART_WINDOW_SECONDS', d.restartWindowSeconds, {
      min: 1,
      max: 86_400,
    }),
    restartBackoffInitialMs: read.int(
      'PLUGIN_NATIVE_RESTART_BACKOFF_INITIAL_MS',
      d.restartBackoffInitialMs,
      { min: 0, max: 600_000 },
    ),
    restartBackoffMaxMs: read.int('PLUGIN_NATIVE_RESTART_BACKOFF_MAX_MS', d.restartBackoffMaxMs, {
      min: 0,
      max: 3_600_000,
    }),
    leaseSeconds: read.int('PLUGIN_NATIVE_LEASE_SECONDS', d.leaseSeconds, {
      min: 0,
      max: 30 * 86_400,
    }),
    ratePerMinute: read.int('PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE', d.ratePerMinute, {
      min: 1,
      max: 1_000_000,
    }),
    idempotencyWindowSeconds: read.int(
      'PLUGIN_NATIVE_IDEMPOTENCY_WINDOW_SECONDS',
      d.idempotencyWindowSeconds,
      { min: 1, max: 30 * 86_400 },
    ),
    idempotencyMaxKeys: read.int('PLUGIN_NATIVE_IDEMPOTENCY_MAX_KEYS', d.idempotencyMaxKeys, {
      min: 1,
      max: 10_000_000,
    }),
    healthIntervalMs: read.int('PLUGIN_NATIVE_HEALTH_INTERVAL_MS', d.healthIntervalMs, {
      min: 0,
      max: 3_600_000,
    }),
    nodePath: read.string('PLUGIN_NATIVE_NODE_PATH', d.nodePath),
  };
  if (limits.restartBackoffMaxMs < limits.restartBackoffInitialMs) {
    read.problem(
      `PLUGIN_NATIVE_RESTART_BACKOFF_MAX_MS (${limits.restartBackoffMaxMs}) must not be below PLUGIN_NATIVE_RESTART_BACKOFF_INITIAL_MS (${limits.restartBackoffInitialMs})`,
    );
  }
  return limits;
}

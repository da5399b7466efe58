/**
 * Limits of the native tier (PLUGIN_NATIVE_*, docs/plugins/native.md). The spec leaves the
 * defaults open ("not shown"); these are the runner's, chosen for notification channels.
 */
export interface NativeLimits {
  /**
   * Memory ceiling per plugin process in MiB. Node programs: V8's old-space heap
   * (`--max-old-space-size`); other executables: address space (RLIMIT_AS through
   * `prlimit`) when `prlimit` is installed, otherwise not enforced (logged at load).
   */
  memoryLimitMb: number;
  /** Handshake line on stdout plus the first health check must finish within this. */
  handshakeTimeoutMs: number;
  /** Deadline of one Deliver call (a caller may ask for less, never more). */
  callTimeoutMs: number;
  /** Each stop step (Shutdown RPC, then SIGTERM) waits this long before the next (SIGKILL). */
  stopTimeoutMs: number;
  /** Restart policy: at most `maxRestarts` restarts within `restartWindowSeconds`, then failed. */
  maxRestarts: number;
  restartWindowSeconds: number;
  /** Back-off before restart n (n = restarts in the window): initial * 2^n, capped. */
  restartBackoffInitialMs: number;
  restartBackoffMaxMs: number;
  /** Process lease: a process older than this is replaced (start new, check, switch, stop old). 0 = never. */
  leaseSeconds: number;
  /** Deliveries per minute per plugin (token bucket, burst = the same number). */
  ratePerMinute: number;
  /** How long a delivered idempotency key is remembered, and how many per plugin. */
  idempotencyWindowSeconds: number;
  idempotencyMaxKeys: number;
  /** Health check period of a running process; two failed checks in a row restart it. 0 = off. */
  healthIntervalMs: number;
  /**
   * NODE_PATH given to Node programs (modules they require but do not bundle; not covered by
   * the digest, so it must be a directory only the operator writes). Empty: none.
   */
  nodePath: string;
}

export const DEFAULT_NATIVE_LIMITS: NativeLimits = {
  memoryLimitMb: 256,
  handshakeTimeoutMs: 10_000,
  callTimeoutMs: 10_000,
  stopTimeoutMs: 2_000,
  maxRestarts: 5,
  restartWindowSeconds: 300,
  restartBackoffInitialMs: 500,
  restartBackoffMaxMs: 30_000,
  leaseSeconds: 3600,
  ratePerMinute: 300,
  idempotencyWindowSeconds: 86_400,
  idempotencyMaxKeys: 10_000,
  healthIntervalMs: 10_000,
  nodePath: '',
};

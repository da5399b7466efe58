import type { EnvReader } from '@platform/config';

/**
 * Limits of the WebAssembly sandbox (tier 1, docs/plugins/limits.md): warm threads per
 * plugin, one invocation per thread, and the caps every call runs under.
 */
export interface SandboxLimits {
  /** PLUGIN_RUNNER_GLOBAL_LIMIT: sandbox threads of all plugins together. */
  globalLimit: number;
  /** PLUGIN_RUNNER_PER_PLUGIN_LIMIT: threads (= concurrent calls) of one plugin. */
  perPluginLimit: number;
  /** PLUGIN_RUNNER_KEEP_WARM_SECONDS: an idle thread is stopped after this long. */
  keepWarmSeconds: number;
  /** PLUGIN_RUNNER_CALL_TIMEOUT_MS: deadline of a call (a caller may ask for less, never more). */
  callTimeoutMs: number;
  /** PLUGIN_RUNNER_QUEUE_TIMEOUT_MS: wait for a free thread before `overloaded`. */
  queueTimeoutMs: number;
  /** PLUGIN_RUNNER_MEMORY_LIMIT_MB: linear memory of one plugin instance. */
  memoryLimitMb: number;
  /** PLUGIN_RUNNER_HOST_CALL_TIMEOUT_MS: wait for one host call's answer. */
  hostCallTimeoutMs: number;
  /** PLUGIN_RUNNER_LOG_LINE_MAX_BYTES: a longer plugin log line is cut. */
  logLineMaxBytes: number;
  /** PLUGIN_RUNNER_LOG_LINES_PER_MINUTE: plugin log lines per plugin per minute. */
  logLinesPerMinute: number;
  /**
   * PLUGIN_RUNNER_SPARE_INSTANCES: never-used plugin instances each sandbox thread keeps ready
   * for the next events (each holds the plugin's initial linear memory: ~9 MiB for a
   * componentize-js plugin).
   */
  spareInstances: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  globalLimit: 20,
  perPluginLimit: 4,
  keepWarmSeconds: 300,
  callTimeoutMs: 10_000,
  queueTimeoutMs: 30_000,
  memoryLimitMb: 64,
  hostCallTimeoutMs: 5_000,
  logLineMaxBytes: 2048,
  logLinesPerMinute: 120,
  spareInstances: 2,
};

/** Reads the PLUGIN_RUNNER_* sandbox settings; problems go to the reader. */
export function readSandboxLimits(read: EnvReader): SandboxLimits {
  const d = DEFAULT_SANDBOX_LIMITS;
  return {
    globalLimit: read.int('PLUGIN_RUNNER_GLOBAL_LIMIT', d.globalLimit, { min: 1, max: 1000 }),
    perPluginLimit: read.int('PLUGIN_RUNNER_PER_PLUGIN_LIMIT', d.perPluginLimit, {
      min: 1,
      max: 1000,
    }),
    keepWarmSeconds: read.int('PLUGIN_RUNNER_KEEP_WARM_SECONDS', d.keepWarmSeconds, {
      min: 0,
      max: 86400,
    }),
    callTimeoutMs: read.int('PLUGIN_RUNNER_CALL_TIMEOUT_MS', d.callTimeoutMs, {
      min: 10,
      max: 600_000,
    }),
    queueTimeoutMs: read.int('PLUGIN_RUNNER_QUEUE_TIMEOUT_MS', d.queueTimeoutMs, {
      min: 0,
      max: 600_000,
    }),
    // The JavaScript engine inside a componentize-js plugin needs ~9.1 MiB (145 pages) at start.
    memoryLimitMb: read.int('PLUGIN_RUNNER_MEMORY_LIMIT_MB', d.memoryLimitMb, {
      min: 16,
      max: 4096,
    }),
    hostCallTimeoutMs: read.int('PLUGIN_RUNNER_HOST_CALL_TIMEOUT_MS', d.hostCallTimeoutMs, {
      min: 10,
      max: 600_000,
    }),
    logLineMaxBytes: read.int('PLUGIN_RUNNER_LOG_LINE_MAX_BYTES', d.logLineMaxBytes, {
      min: 64,
      max: 65536,
    }),
    logLinesPerMinute: read.int('PLUGIN_RUNNER_LOG_LINES_PER_MINUTE', d.logLinesPerMinute, {
      min: 1,
      max: 100_000,
    }),
    spareInstances: read.int('PLUGIN_RUNNER_SPARE_INSTANCES', d.spareInstances, {
      min: 1,
      max: 16,
    }),
  };
}

import { EnvReader } from '@platform/config';
import type { LogLevel } from '@platform/logging';
import { LOG_LEVELS } from '@platform/logging';
import { readEgressPolicy, type EgressPolicy } from '@platform/egress';
import type { NativeLimits } from '../../native/native-limits';
import { DEFAULT_COMPILED_CACHE_ENTRIES } from '../../wasm/compile/component-compiler';
import {
  type CompileThreadSettings,
  DEFAULT_COMPILE_THREAD_SETTINGS,
} from '../../wasm/compile/compile-threads';
import { readNativeLimits } from './native.config';
import { readRunnerApiConfig, type RunnerApiConfig } from './runner-api.config';
import { readSandboxLimits, type SandboxLimits } from './sandbox.config';
import { readTranspileCacheSettings } from './transpile-cache.config';
import type { TranspileCacheSettings } from '../../wasm/compile/transpile-cache';

/** Typed settings of the plugin runner, read and validated once at boot. */
export interface PluginRunnerConfig {
  http: { host: string; port: number };
  /** gRPC listener: health today, the native (tier 2) channel host later. Loopback by default. */
  grpc: { host: string; port: number };
  metrics: { host: string; port: number };
  log: { level: LogLevel; json: boolean; fileDirectory?: string };
  /** Limits of the WebAssembly sandbox (PLUGIN_RUNNER_*, docs/plugins/limits.md). */
  sandbox: SandboxLimits;
  /** The egress guard of the plugins' `http-request` (PLUGIN_EGRESS_*, docs/egress.md). */
  egress: EgressPolicy;
  /** Limits of the native channel processes (PLUGIN_NATIVE_*, docs/plugins/native.md). */
  native: NativeLimits;
  /** The runner API for the findings service (PLUGIN_RUNNER_TOKEN, docs/plugins/runner-api.md). */
  runnerApi: RunnerApiConfig;
  /** Grace period for in-flight calls at shutdown before connections are cut. */
  shutdownGraceMs: number;
  /**
   * PLUGIN_RUNNER_COMPILED_CACHE_ENTRIES (default 2, 0-64): compiled plugin versions kept for
   * reuse, loaded or not (~55 MB of RSS each for a 12 MB component; docs/plugins/limits.md).
   */
  compiledCacheEntries: number;
  /**
   * PLUGIN_RUNNER_COMPILE_THREADS (default 2, 1-16) and PLUGIN_RUNNER_COMPILE_THREAD_IDLE_SECONDS
   * (default 60, 0-86400): threads that transpile components at load, and how long an idle
   * one is kept for the next load (~175 MB of RSS each; 0: a thread per load).
   */
  compileThreads: CompileThreadSettings;
  /**
   * PLUGIN_RUNNER_TRANSPILE_CACHE_DIR / _MAX_MB: the disk cache of what jco made for accepted
   * components, shared by runner processes (transpile-cache.config.ts).
   */
  transpileCache: TranspileCacheSettings;
}

const PORT = { min: 0, max: 65535 };
/** Same default as the findings service's LOG_DIR (the spec's LOG_FILE_SINK_ENABLED is true). */
const DEFAULT_LOG_DIR = '/var/tmp/secplatform/logs';

/** Reads the plugin runner's environment; throws ConfigError listing every problem. */
export function loadPluginRunnerConfig(
  env: Record<string, string | undefined> = process.env,
): PluginRunnerConfig {
  const read = new EnvReader(env);
  const config: PluginRunnerConfig = {
    http: {
      host: read.string('PLUGIN_RUNNER_HOST', '0.0.0.0'),
      port: read.int('PLUGIN_RUNNER_PORT', 7070, PORT),
    },
    grpc: {
      host: read.string('PLUGIN_RUNNER_GRPC_HOST', '127.0.0.1'),
      port: read.int('PLUGIN_RUNNER_GRPC_PORT', 7071, PORT),
    },
    metrics: {
      host: read.string('METRICS_HOST', '0.0.0.0'),
      port: read.int('METRICS_PORT', 9092, PORT),
    },
    log: {
      level: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
      json: read.string('APP_ENV', 'development') === 'production',
      fileDirectory: read.bool('LOG_FILE_SINK_ENABLED', true)
        ? read.string('LOG_DIR', DEFAULT_LOG_DIR)
        : undefined,
    },
    sandbox: readSandboxLimits(read),
    egress: readEgressPolicy(read, 'PLUGIN_EGRESS'),
    native: readNativeLimits(read),
    runnerApi: readRunnerApiConfig(read),
    shutdownGraceMs: read.int('PLUGIN_RUNNER_SHUTDOWN_GRACE_MS', 10000, { min: 0, max: 600000 }),
    compiledCacheEntries: read.int(
      'PLUGIN_RUNNER_COMPILED_CACHE_ENTRIES',
      DEFAULT_COMPILED_CACHE_ENTRIES,
      { min: 0, max: 64 },
    ),
    compileThreads: {
      threads: read.int('PLUGIN_RUNNER_COMPILE_THREADS', DEFAULT_COMPILE_THREAD_SETTINGS.threads, {
        min: 1,
        max: 16,
      }),
      idleMs:
        read.int(
          'PLUGIN_RUNNER_COMPILE_THREAD_IDLE_SECONDS',
          DEFAULT_COMPILE_THREAD_SETTINGS.idleMs / 1000,
          { min: 0, max: 86400 },
        ) * 1000,
    },
    transpileCache: readTranspileCacheSettings(read),
  };
  if (config.sandbox.perPluginLimit > config.sandbox.globalLimit) {
    read.problem(
      `PLUGIN_RUNNER_PER_PLUGIN_LIMIT (${config.sandbox.perPluginLimit}) must not exceed PLUGIN_RUNNER_GLOBAL_LIMIT (${config.sandbox.globalLimit})`,
    );
  }
  const ports = [config.http.port, config.grpc.port, config.metrics.port].filter((p) => p !== 0);
  if (new Set(ports).size !== ports.length) {
    read.problem(
      'PLUGIN_RUNNER_PORT, PLUGIN_RUNNER_GRPC_PORT and METRICS_PORT must be different ports',
    );
  }
  read.done();
  return config;
}

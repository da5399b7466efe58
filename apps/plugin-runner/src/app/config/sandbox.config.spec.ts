import { ConfigError } from '@platform/config';
import { loadPluginRunnerConfig } from './plugin-runner.config';
import { DEFAULT_SANDBOX_LIMITS } from './sandbox.config';

describe('sandbox limits (PLUGIN_RUNNER_*)', () => {
  it('defaults to the spec: 20 threads, 4 per plugin, 300 s warm; and the documented caps', () => {
    expect(loadPluginRunnerConfig({}).sandbox).toEqual({
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
    });
    expect(loadPluginRunnerConfig({}).sandbox).toEqual(DEFAULT_SANDBOX_LIMITS);
  });

  it('reads every variable', () => {
    const sandbox = loadPluginRunnerConfig({
      PLUGIN_RUNNER_GLOBAL_LIMIT: '8',
      PLUGIN_RUNNER_PER_PLUGIN_LIMIT: '2',
      PLUGIN_RUNNER_KEEP_WARM_SECONDS: '0',
      PLUGIN_RUNNER_CALL_TIMEOUT_MS: '300',
      PLUGIN_RUNNER_QUEUE_TIMEOUT_MS: '50',
      PLUGIN_RUNNER_MEMORY_LIMIT_MB: '32',
      PLUGIN_RUNNER_HOST_CALL_TIMEOUT_MS: '100',
      PLUGIN_RUNNER_LOG_LINE_MAX_BYTES: '256',
      PLUGIN_RUNNER_LOG_LINES_PER_MINUTE: '10',
      PLUGIN_RUNNER_SPARE_INSTANCES: '5',
    }).sandbox;
    expect(sandbox).toEqual({
      globalLimit: 8,
      perPluginLimit: 2,
      keepWarmSeconds: 0,
      callTimeoutMs: 300,
      queueTimeoutMs: 50,
      memoryLimitMb: 32,
      hostCallTimeoutMs: 100,
      logLineMaxBytes: 256,
      logLinesPerMinute: 10,
      spareInstances: 5,
    });
  });

  it('refuses a memory cap below what the plugin engine needs at start', () => {
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_MEMORY_LIMIT_MB: '8' })).toThrow(
      ConfigError,
    );
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_MEMORY_LIMIT_MB: '8' })).toThrow(
      /PLUGIN_RUNNER_MEMORY_LIMIT_MB must be >= 16/,
    );
  });

  it('bounds the spare instances per thread to 1-16 (PLUGIN_RUNNER_SPARE_INSTANCES)', () => {
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_SPARE_INSTANCES: '0' })).toThrow(
      /PLUGIN_RUNNER_SPARE_INSTANCES must be >= 1/,
    );
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_SPARE_INSTANCES: '17' })).toThrow(
      /PLUGIN_RUNNER_SPARE_INSTANCES must be <= 16/,
    );
  });
});

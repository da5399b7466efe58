import { ConfigError } from '@platform/config';
import { loadPluginRunnerConfig } from './plugin-runner.config';

describe('plugin runner config', () => {
  it('defaults to HTTP 7070, gRPC 7071 on loopback and metrics 9092', () => {
    const config = loadPluginRunnerConfig({});
    expect(config.http).toEqual({ host: '0.0.0.0', port: 7070 });
    expect(config.grpc).toEqual({ host: '127.0.0.1', port: 7071 });
    expect(config.metrics.port).toBe(9092);
    expect(config.sandbox).toMatchObject({
      globalLimit: 20,
      perPluginLimit: 4,
      keepWarmSeconds: 300,
    });
  });

  it('keeps 2 compiled plugin versions by default; PLUGIN_RUNNER_COMPILED_CACHE_ENTRIES sets 0-64', () => {
    expect(loadPluginRunnerConfig({}).compiledCacheEntries).toBe(2);
    expect(
      loadPluginRunnerConfig({ PLUGIN_RUNNER_COMPILED_CACHE_ENTRIES: '0' }).compiledCacheEntries,
    ).toBe(0);
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_COMPILED_CACHE_ENTRIES: '65' })).toThrow(
      /PLUGIN_RUNNER_COMPILED_CACHE_ENTRIES must be <= 64/,
    );
  });

  it('keeps 2 compile threads for 60 s by default; PLUGIN_RUNNER_COMPILE_THREADS / _IDLE_SECONDS set them', () => {
    expect(loadPluginRunnerConfig({}).compileThreads).toEqual({ threads: 2, idleMs: 60_000 });
    expect(
      loadPluginRunnerConfig({
        PLUGIN_RUNNER_COMPILE_THREADS: '1',
        PLUGIN_RUNNER_COMPILE_THREAD_IDLE_SECONDS: '0',
      }).compileThreads,
    ).toEqual({ threads: 1, idleMs: 0 });
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_COMPILE_THREADS: '0' })).toThrow(
      /PLUGIN_RUNNER_COMPILE_THREADS must be >= 1/,
    );
  });

  it('keeps transpiles in /var/tmp/secplatform/transpile-cache (512 MB) by default; PLUGIN_RUNNER_TRANSPILE_CACHE_DIR / _MAX_MB set it, off turns it off', () => {
    expect(loadPluginRunnerConfig({}).transpileCache).toEqual({
      directory: '/var/tmp/secplatform/transpile-cache',
      maxBytes: 512 * 1024 * 1024,
    });
    expect(
      loadPluginRunnerConfig({
        PLUGIN_RUNNER_TRANSPILE_CACHE_DIR: '/srv/cache',
        PLUGIN_RUNNER_TRANSPILE_CACHE_MAX_MB: '64',
      }).transpileCache,
    ).toEqual({ directory: '/srv/cache', maxBytes: 64 * 1024 * 1024 });
    expect(
      loadPluginRunnerConfig({ PLUGIN_RUNNER_TRANSPILE_CACHE_DIR: 'off' }).transpileCache.directory,
    ).toBeUndefined();
    expect(() =>
      loadPluginRunnerConfig({ PLUGIN_RUNNER_TRANSPILE_CACHE_DIR: 'cache/transpiles' }),
    ).toThrow(
      /PLUGIN_RUNNER_TRANSPILE_CACHE_DIR must be an absolute directory path or off, got "cache\/transpiles"/,
    );
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_TRANSPILE_CACHE_MAX_MB: '0' })).toThrow(
      /PLUGIN_RUNNER_TRANSPILE_CACHE_MAX_MB must be >= 1/,
    );
  });

  it('writes rotated log files by default, like the findings service (LOG_FILE_SINK_ENABLED)', () => {
    expect(loadPluginRunnerConfig({}).log.fileDirectory).toBe('/var/tmp/secplatform/logs');
    expect(loadPluginRunnerConfig({ LOG_DIR: '/srv/logs' }).log.fileDirectory).toBe('/srv/logs');
    expect(loadPluginRunnerConfig({ LOG_FILE_SINK_ENABLED: 'false' }).log.fileDirectory).toBe(
      undefined,
    );
  });

  it('reports every invalid setting at once', () => {
    const attempt = () =>
      loadPluginRunnerConfig({
        PLUGIN_RUNNER_PORT: 'http',
        PLUGIN_RUNNER_GRPC_PORT: '70000',
        LOG_LEVEL: 'trace',
        PLUGIN_RUNNER_GLOBAL_LIMIT: '2',
        PLUGIN_RUNNER_PER_PLUGIN_LIMIT: '3',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('PLUGIN_RUNNER_PORT must be an integer');
      expect(problems).toContain('PLUGIN_RUNNER_GRPC_PORT must be <= 65535');
      expect(problems).toContain('LOG_LEVEL must be one of');
      expect(problems).toContain('must not exceed PLUGIN_RUNNER_GLOBAL_LIMIT');
    }
  });

  it('rejects two listeners on the same port', () => {
    expect(() =>
      loadPluginRunnerConfig({ PLUGIN_RUNNER_PORT: '9092', METRICS_PORT: '9092' }),
    ).toThrow(/must be different ports/);
  });
});

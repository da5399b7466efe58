import { ConfigError } from '@platform/config';
import { loadPluginRunnerConfig } from './plugin-runner.config';

describe('runner API config (PLUGIN_RUNNER_TOKEN)', () => {
  it('has no token by default (the runner API then refuses every call)', () => {
    expect(loadPluginRunnerConfig({}).runnerApi).toEqual({ token: undefined });
  });

  it('takes a token of at least 32 characters', () => {
    const token = 'a'.repeat(32);
    expect(loadPluginRunnerConfig({ PLUGIN_RUNNER_TOKEN: token }).runnerApi.token).toBe(token);
    expect(() => loadPluginRunnerConfig({ PLUGIN_RUNNER_TOKEN: 'short' })).toThrow(ConfigError);
    try {
      loadPluginRunnerConfig({ PLUGIN_RUNNER_TOKEN: 'short' });
    } catch (error) {
      expect((error as ConfigError).problems).toContain(
        'PLUGIN_RUNNER_TOKEN must be at least 32 characters',
      );
    }
  });
});

import { ConfigError, EnvReader } from '@platform/config';
import { readPluginRunnerClientConfig } from './plugin-runner-config';

function read(env: Record<string, string>) {
  const r = new EnvReader(env);
  const config = readPluginRunnerClientConfig(r);
  r.done();
  return config;
}

function problems(env: Record<string, string>): string[] {
  try {
    read(env);
  } catch (error) {
    return (error as ConfigError).problems;
  }
  return [];
}

describe('plugin runner client config (PLUGIN_RUNNER_URL, PLUGIN_RUNNER_TOKEN)', () => {
  it("defaults to the runner's own gRPC default on loopback, no token, 60 s calls", () => {
    expect(read({})).toEqual({ target: '127.0.0.1:7071', token: undefined, timeoutMs: 60_000 });
  });

  it('takes host:port, grpc://host:port and [v6]:port', () => {
    expect(read({ PLUGIN_RUNNER_URL: 'runner.internal:9000' }).target).toBe('runner.internal:9000');
    expect(read({ PLUGIN_RUNNER_URL: 'grpc://10.0.0.5:7071' }).target).toBe('10.0.0.5:7071');
    expect(read({ PLUGIN_RUNNER_URL: '[::1]:7071' }).target).toBe('[::1]:7071');
  });

  it('refuses other URLs and a short token', () => {
    for (const url of ['http://runner:7071', 'runner', 'runner:0', 'runner:70000', 'a b:1']) {
      expect(problems({ PLUGIN_RUNNER_URL: url })).toEqual([
        `PLUGIN_RUNNER_URL must be host:port (or grpc://host:port), got "${url}"`,
      ]);
    }
    expect(problems({ PLUGIN_RUNNER_TOKEN: 'short' })).toEqual([
      'PLUGIN_RUNNER_TOKEN must be at least 32 characters',
    ]);
  });
});

import { ConfigError } from '@platform/config';
import { loadPluginRunnerConfig } from './plugin-runner.config';

describe('plugin runner config: PLUGIN_EGRESS_*', () => {
  it('defaults to https only, no local dial, no allowlist, 10 s, 1 MiB out, 5 MiB in, 5 redirects', () => {
    expect(loadPluginRunnerConfig({}).egress).toEqual({
      allowHttp: false,
      allowLocalDial: false,
      allowlist: [],
      timeoutMs: 10_000,
      maxRequestBytes: 1024 * 1024,
      maxResponseBytes: 5 * 1024 * 1024,
      maxRedirects: 5,
    });
  });

  it('reads every setting', () => {
    const egress = loadPluginRunnerConfig({
      PLUGIN_EGRESS_ALLOW_HTTP: 'true',
      PLUGIN_EGRESS_ALLOW_LOCAL_DIAL: 'true',
      PLUGIN_EGRESS_ALLOWLIST: '10.1.2.0/24, 192.0.2.7 ,2001:db8::/32',
      PLUGIN_EGRESS_TIMEOUT_MS: '2500',
      PLUGIN_EGRESS_MAX_REQUEST_BYTES: '2048',
      PLUGIN_EGRESS_MAX_RESPONSE_BYTES: '65536',
      PLUGIN_EGRESS_MAX_REDIRECTS: '0',
    }).egress;
    expect(egress).toMatchObject({
      allowHttp: true,
      allowLocalDial: true,
      timeoutMs: 2500,
      maxRequestBytes: 2048,
      maxResponseBytes: 65536,
      maxRedirects: 0,
    });
    expect(egress.allowlist.map((r) => r.text)).toEqual([
      '10.1.2.0/24',
      '192.0.2.7/32',
      '2001:db8::/32',
    ]);
  });

  it('refuses an invalid allowlist or bound, naming each problem', () => {
    let problems = '';
    try {
      loadPluginRunnerConfig({
        PLUGIN_EGRESS_ALLOWLIST: '10.0.0.1/8,example.com,0x7f000001/32',
        PLUGIN_EGRESS_ALLOW_HTTP: 'maybe',
        PLUGIN_EGRESS_MAX_REDIRECTS: '50',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems.join('\n');
    }
    expect(problems).toContain(
      'PLUGIN_EGRESS_ALLOWLIST: "10.0.0.1/8" has host bits set (did you mean 10.0.0.0/8?)',
    );
    expect(problems).toContain(
      'PLUGIN_EGRESS_ALLOWLIST: "example.com" is not an IP address or CIDR range',
    );
    expect(problems).toContain(
      'PLUGIN_EGRESS_ALLOWLIST: "0x7f000001/32" is not an IP address or CIDR range',
    );
    expect(problems).toContain('PLUGIN_EGRESS_ALLOW_HTTP must be a boolean');
    expect(problems).toContain('PLUGIN_EGRESS_MAX_REDIRECTS must be <= 20');
  });
});

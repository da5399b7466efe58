import { ConfigError, EnvReader } from '@platform/config';
import { readOutboundConfig } from './outbound-config';

function read(env: Record<string, string>, production = false) {
  const r = new EnvReader(env);
  const config = readOutboundConfig(r, production);
  try {
    r.done();
    return { config, problems: [] as string[] };
  } catch (error) {
    return { config, problems: (error as ConfigError).problems };
  }
}

describe('outbound config (OUTBOUND_*)', () => {
  it('defaults to https only, no local dial, no allowlist, 10 s, 5 MiB, 5 redirects', () => {
    expect(read({})).toEqual({
      problems: [],
      config: {
        allowHttp: false,
        allowLocalDial: false,
        allowlist: [],
        timeoutMs: 10_000,
        maxRequestBytes: 1024 * 1024,
        maxResponseBytes: 5 * 1024 * 1024,
        maxRedirects: 5,
      },
    });
  });

  it('reads every variable and names each problem', () => {
    const { config } = read({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_LOCAL_DIAL: 'true',
      OUTBOUND_ALLOWLIST: '10.20.0.0/16, 2001:db8::/32',
      OUTBOUND_TIMEOUT_MS: '2500',
      OUTBOUND_MAX_REQUEST_BYTES: '2048',
      OUTBOUND_MAX_RESPONSE_BYTES: '65536',
      OUTBOUND_MAX_REDIRECTS: '0',
    });
    expect(config).toMatchObject({
      allowHttp: true,
      allowLocalDial: true,
      timeoutMs: 2500,
      maxRequestBytes: 2048,
      maxResponseBytes: 65536,
      maxRedirects: 0,
    });
    expect(config.allowlist.map((r) => r.text)).toEqual(['10.20.0.0/16', '2001:db8::/32']);
    expect(
      read({
        OUTBOUND_ALLOWLIST: 'netbox.example',
        OUTBOUND_TIMEOUT_MS: '5',
        OUTBOUND_ALLOW_HTTP: 'maybe',
      }).problems,
    ).toEqual([
      'OUTBOUND_ALLOWLIST: "netbox.example" is not an IP address or CIDR range',
      'OUTBOUND_ALLOW_HTTP must be a boolean (true/false), got "maybe"',
      'OUTBOUND_TIMEOUT_MS must be >= 100, got 5',
    ]);
  });

  it('refuses local dial in production unless an allowlist names the ranges', () => {
    expect(read({ OUTBOUND_ALLOW_LOCAL_DIAL: 'true' }).problems).toEqual([]);
    expect(read({ OUTBOUND_ALLOW_LOCAL_DIAL: 'true' }, true).problems).toEqual([
      expect.stringContaining('OUTBOUND_ALLOW_LOCAL_DIAL with APP_ENV=production'),
    ]);
    expect(
      read({ OUTBOUND_ALLOW_LOCAL_DIAL: 'true', OUTBOUND_ALLOWLIST: '10.20.0.0/16' }, true)
        .problems,
    ).toEqual([]);
  });
});

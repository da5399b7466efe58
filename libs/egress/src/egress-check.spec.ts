import { checkEgressUrl } from './egress-check';
import { ANY_HOST, type EgressContext } from './egress-guard';
import { DEFAULT_EGRESS_POLICY, type EgressPolicy } from './egress-policy';
import { parseCidr, type IpRange } from './ip-address';

const anyHost: EgressContext = { caller: 'test', permittedHosts: ANY_HOST };
const policy = (overrides: Partial<EgressPolicy> = {}): EgressPolicy => ({
  ...DEFAULT_EGRESS_POLICY,
  ...overrides,
});
const range = (text: string) => parseCidr(text) as IpRange;
const reasonOf = (url: string, p = policy(), context = anyHost) => {
  const checked = checkEgressUrl(p, context, url);
  return checked.ok ? 'ok' : checked.reason;
};

describe('checkEgressUrl: the checks that need no DNS', () => {
  it('any host: the address rules still decide, in every spelling', () => {
    expect(reasonOf('https://ipam.example.com/api/')).toBe('ok');
    expect(reasonOf('http://ipam.example.com/api/')).toBe('scheme_not_allowed');
    expect(reasonOf('ftp://ipam.example.com/')).toBe('scheme_not_allowed');
    expect(reasonOf('https://user:pw@ipam.example.com/')).toBe('invalid_url');
    expect(reasonOf('not a url')).toBe('invalid_url');
    for (const url of [
      'https://127.1/',
      'https://0x7f000001/',
      'https://[::ffff:127.0.0.1]/',
      'https://10.0.0.5/',
      'https://169.254.169.254/',
    ]) {
      expect([url, reasonOf(url)]).toEqual([url, 'address_not_allowed']);
    }
    expect(reasonOf('https://localhost/')).toBe('host_forbidden');
    expect(reasonOf('https://netbox.internal/')).toBe('host_forbidden');
    expect(reasonOf('https://metadata.google.internal/')).toBe('host_forbidden');
  });

  it('local dial admits local names and addresses, never metadata', () => {
    const local = policy({ allowLocalDial: true, allowHttp: true });
    expect(reasonOf('http://127.0.0.1:8080/', local)).toBe('ok');
    expect(reasonOf('https://netbox.internal/', local)).toBe('ok');
    expect(reasonOf('http://169.254.169.254/', local)).toBe('address_not_allowed');
    expect(reasonOf('http://metadata.google.internal/', local)).toBe('host_forbidden');
  });

  it('an allowlist confines literal addresses; a name is checked when called', () => {
    const jail = policy({ allowLocalDial: true, allowlist: [range('10.20.0.0/16')] });
    expect(reasonOf('https://10.20.1.2/', jail)).toBe('ok');
    expect(reasonOf('https://10.30.1.2/', jail)).toBe('address_not_allowlisted');
    expect(reasonOf('https://ipam.example.com/', jail)).toBe('ok');
  });

  it('a list of permitted hosts is matched exactly, with ports', () => {
    const plugin: EgressContext = { caller: 'p', permittedHosts: ['api.example.com'] };
    expect(reasonOf('https://API.example.com./v1', policy(), plugin)).toBe('ok');
    expect(reasonOf('https://api.example.com:8443/', policy(), plugin)).toBe('host_not_permitted');
    expect(reasonOf('https://evil.example.com/', policy(), plugin)).toBe('host_not_permitted');
  });

  it('names the caller and the allowlist setting in its messages', () => {
    const checked = checkEgressUrl(
      policy({ allowLocalDial: true, allowlist: [range('10.20.0.0/16')] }),
      { caller: 'p', permittedHosts: ['10.30.1.2'] },
      'https://10.30.1.2/',
      { allowlist: 'OUTBOUND_ALLOWLIST' },
    );
    expect(checked).toEqual({
      ok: false,
      reason: 'address_not_allowlisted',
      message: 'no address of 10.30.1.2:443 is in OUTBOUND_ALLOWLIST',
    });
    expect(
      checkEgressUrl(policy(), { caller: 'p', permittedHosts: [] }, 'https://a.example/', {
        callerNoun: 'the plugin',
      }),
    ).toMatchObject({ message: 'a.example:443 is not a permitted host of the plugin' });
  });
});

import {
  isPermitted,
  parsePermittedHost,
  permittedHostOfUrl,
  type PermittedHost,
} from './permitted-hosts';

const entries = (...texts: string[]) =>
  texts.map(parsePermittedHost).filter((e): e is PermittedHost => e !== undefined);

describe('permitted hosts', () => {
  it('matches exactly after normalisation, default ports for a bare host', () => {
    const list = entries(
      'API.Example.com.',
      'bücher.example',
      'cmdb.example:8443',
      '[2001:db8::1]',
      '0x0a000005',
    );
    expect(isPermitted(list, 'api.example.com', 443)).toBe(true);
    expect(isPermitted(list, 'api.example.com', 80)).toBe(true);
    expect(isPermitted(list, 'api.example.com', 8443)).toBe(false);
    expect(isPermitted(list, 'xn--bcher-kva.example', 443)).toBe(true);
    expect(isPermitted(list, 'cmdb.example', 8443)).toBe(true);
    expect(isPermitted(list, 'cmdb.example', 443)).toBe(false);
    expect(isPermitted(list, '2001:db8::1', 443)).toBe(true);
    expect(isPermitted(list, '10.0.0.5', 443)).toBe(true);
    expect(isPermitted(list, 'evil.api.example.com', 443)).toBe(false);
    expect(isPermitted(list, 'api.example.com.evil', 443)).toBe(false);
  });

  it.each([
    '*.example.com',
    '*',
    'user@api.example.com',
    'api.example.com/path',
    'https://api.example.com',
    'a b',
    '',
    'api.example.com?x',
    'evil\\@api.example.com',
  ])('the entry %j opens nothing (no wildcards, no URLs)', (entry) => {
    expect(parsePermittedHost(entry)).toBeUndefined();
  });

  it.each([
    ['https://cmdb.example.com/api/v1', 'cmdb.example.com'],
    ['https://CMDB.example.com:8443/', 'cmdb.example.com:8443'],
    ['https://cmdb.example.com:443/', 'cmdb.example.com'],
    ['http://10.1.2.3/', '10.1.2.3'],
    ['https://[2001:db8::1]:9443/x', '[2001:db8::1]:9443'],
    ['ftp://files.example.com/', undefined],
    ['not a url', undefined],
  ])('a URL setting %s grants %s', (url, entry) => {
    expect(permittedHostOfUrl(url)).toBe(entry);
    if (entry) expect(parsePermittedHost(entry)).toBeDefined();
  });
});

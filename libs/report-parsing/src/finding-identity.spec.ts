import { findingIdentity, identityKind, identityMaterial, IdentityInput } from './finding-identity';

const code = (over: Partial<IdentityInput['location']> = {}, rule = 'R1'): IdentityInput => ({
  rule_id: rule,
  location: {
    kind: 'file',
    path: 'src/a.c',
    start_line: 10,
    end_line: 12,
    ...over,
  } as IdentityInput['location'],
});

const network = (
  host: string,
  port: number | undefined,
  rule: string,
  cve?: string,
  protocol?: string,
): IdentityInput => ({
  rule_id: rule,
  location: {
    kind: 'network',
    host,
    ...(port === undefined ? {} : { port }),
    ...(protocol ? { protocol } : {}),
  },
  ...(cve ? { cve } : {}),
});

describe('findingIdentity', () => {
  it('is a hex SHA-256 over a versioned, unambiguous JSON material', () => {
    expect(findingIdentity(code())).toMatch(/^[0-9a-f]{64}$/);
    expect(identityMaterial(code())).toEqual([
      'finding-identity/v1',
      'code',
      'R1',
      'src/a.c',
      10,
      12,
    ]);
    // Length-safe: a separator inside a value cannot collide with a field boundary.
    expect(findingIdentity(code({ path: 'a|b' }, 'x'))).not.toBe(
      findingIdentity(code({ path: 'b' }, 'x|a')),
    );
  });

  it('network with CVE: same CVE and port from two scanners/rules is one identity', () => {
    const a = network('db.internal', 5432, 'nessus-123', 'CVE-2023-0001', 'tcp');
    const b = network('DB.internal', 5432, 'openvas-xyz', 'cve-2023-0001');
    expect(findingIdentity(a)).toBe(findingIdentity(b));
    expect(identityKind(a)).toBe('network_cve');
    expect(identityMaterial(a)).toEqual([
      'finding-identity/v1',
      'network_cve',
      'CVE-2023-0001',
      'db.internal',
      5432,
      'tcp',
    ]);
  });

  it('network without CVE: different rules on one port collapse (rule not included)', () => {
    const a = network('10.0.0.5', 22, 'ssh-weak-cipher');
    const b = network('10.0.0.5', 22, 'ssh-password-auth', undefined, 'TCP');
    expect(findingIdentity(a)).toBe(findingIdentity(b));
    expect(identityKind(a)).toBe('network');
  });

  it('differs by host, port, protocol and CVE', () => {
    const base = findingIdentity(network('10.0.0.5', 22, 'r'));
    expect(findingIdentity(network('10.0.0.6', 22, 'r'))).not.toBe(base);
    expect(findingIdentity(network('10.0.0.5', 2222, 'r'))).not.toBe(base);
    expect(findingIdentity(network('10.0.0.5', 22, 'r', undefined, 'udp'))).not.toBe(base);
    expect(findingIdentity(network('10.0.0.5', 22, 'r', 'CVE-2020-1'))).not.toBe(base);
    expect(findingIdentity(network('10.0.0.5', undefined, 'r'))).not.toBe(base);
  });

  it('code: snippet and scanner never matter; rule, path and lines do', () => {
    const base = findingIdentity(code());
    expect(findingIdentity(code({ snippet: 'strcpy(a, b);' }))).toBe(base);
    expect(findingIdentity({ ...code(), scanner: 'other' } as IdentityInput)).toBe(base);
    expect(findingIdentity(code({ path: './src//a.c' }))).toBe(base);
    expect(findingIdentity(code({}, 'R2'))).not.toBe(base);
    expect(findingIdentity(code({ path: 'src/b.c' }))).not.toBe(base);
    expect(findingIdentity(code({ start_line: 11 }))).not.toBe(base);
    expect(findingIdentity(code({ end_line: 13 }))).not.toBe(base);
  });

  it('code: an absent end line equals the start line', () => {
    expect(findingIdentity(code({ end_line: undefined, start_line: 4 }))).toBe(
      findingIdentity(code({ start_line: 4, end_line: 4 })),
    );
  });

  it('web: rule + full address; only scheme and host case are normalized', () => {
    const web = (url: string, rule = 'xss'): IdentityInput => ({
      rule_id: rule,
      location: { kind: 'web', url },
    });
    const base = findingIdentity(web('https://Shop.Example.com/Login?Next=/A'));
    expect(findingIdentity(web('HTTPS://shop.example.COM/Login?Next=/A'))).toBe(base);
    expect(findingIdentity(web('https://shop.example.com/login?Next=/A'))).not.toBe(base);
    expect(findingIdentity(web('https://shop.example.com/Login?Next=/A', 'sqli'))).not.toBe(base);
    expect(identityKind(web('http://x'))).toBe('web');
    // A network host or a path that is an http(s) address is a web resource.
    expect(
      identityKind({ rule_id: 'r', location: { kind: 'network', host: 'https://x.test/' } }),
    ).toBe('web');
    expect(
      identityKind({ rule_id: 'r', location: { kind: 'file', path: 'http://x.test/a' } }),
    ).toBe('web');
  });

  it('never includes extended report fields', () => {
    const plain = code();
    const extended = {
      ...plain,
      suppressed: true,
      kind: 'pass',
      baseline_state: 'new',
      fingerprints: { a: 'b' },
    };
    expect(findingIdentity(extended as IdentityInput)).toBe(findingIdentity(plain));
  });

  it('a discriminator separates line-less code findings only, in a longer material', () => {
    const lineless = code({ start_line: undefined, end_line: undefined });
    const a = { ...lineless, discriminator: 'CVE-2021-44228' };
    const b = { ...lineless, discriminator: 'CVE-2021-45046' };
    expect(identityMaterial(a)).toEqual([
      'finding-identity/v1',
      'code',
      'R1',
      'src/a.c',
      null,
      null,
      'CVE-2021-44228',
    ]);
    expect(findingIdentity(a)).not.toBe(findingIdentity(b));
    expect(findingIdentity(a)).not.toBe(findingIdentity(lineless));
    // With a line the discriminator is ignored: stored identities keep their meaning.
    expect(findingIdentity({ ...code(), discriminator: 'x' })).toBe(findingIdentity(code()));
  });
});

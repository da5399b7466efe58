import { EntryOverlaps, type IndexedEntry } from './entry-overlaps';
import { cidrBlocks, Perimeter, type EntryMode, type PerimeterEntry } from './perimeter';
import { parseEntryValue } from './scope-entry-value';
import { parseTarget } from './scope-target';

function entry(mode: EntryMode, text: string): PerimeterEntry {
  const parsed = parseEntryValue(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.problem}`);
  return { mode, entry: parsed.entry };
}
const inc = (text: string) => entry('include', text);
const exc = (text: string) => entry('exclude', text);

describe('Scope targets', () => {
  it('reads addresses, names, host:port and URLs', () => {
    expect(parseTarget('192.0.2.1')).toEqual({ kind: 'ipv4', value: 0xc0000201 });
    expect(parseTarget('192.0.2.1:8443')).toEqual({ kind: 'ipv4', value: 0xc0000201 });
    expect(parseTarget('[2001:db8::1]:443')).toEqual({
      kind: 'ipv6',
      value: 0x20010db8000000000000000000000001n,
    });
    expect(parseTarget('::ffff:192.0.2.1')).toEqual({ kind: 'ipv4', value: 0xc0000201 });
    expect(parseTarget('WWW.Example.com.')).toEqual({ kind: 'host', name: 'www.example.com' });
    expect(parseTarget('https://Пример.рф:8443/путь?q=1')).toEqual({
      kind: 'host',
      name: 'xn--e1afmkfd.xn--p1ai',
    });
    expect(parseTarget('http://[2001:db8::1]/x')).toEqual({
      kind: 'ipv6',
      value: 0x20010db8000000000000000000000001n,
    });
    expect(parseTarget('http://10.0.0.1:81/')).toEqual({ kind: 'ipv4', value: 0x0a000001 });
  });

  it("reads a URL's host as the WHATWG URL parser does (the direct cut and the parser agree)", () => {
    const urls = [
      'https://Example.COM/path',
      'https://example.com.:8443/x?y#z',
      'http://10.0.0.1:81/',
      'http://[2001:DB8::1]:8080/',
      'http://0x7f.1/',
      'http://127.1/',
      'http://010.0.0.1/',
      'https://user:pw@host.example/',
      'https://host.example\\evil',
      'https://xn--e1afmkfd.xn--p1ai/',
      'https://Пример.рф/',
      'https://%65xample.com/',
      'ftp://files.example:21',
      'ssh://Git.Example',
      'http://a..b/',
      'https://a.0x7f/',
      'https://example.com:99999/',
    ];
    for (const url of urls) {
      let expected: unknown;
      try {
        const host = new URL(url).hostname;
        expected = host === '' ? { kind: 'invalid', reason: 'invalid_url' } : parseTarget(host);
      } catch {
        expected = { kind: 'invalid', reason: 'invalid_url' };
      }
      expect([url, parseTarget(url)]).toEqual([url, expected]);
    }
  });

  it('names why a target is invalid', () => {
    const reasons = Object.fromEntries(
      [
        '',
        'x'.repeat(3000),
        '1.2.3.256',
        '010.0.0.1',
        'exa mple.com',
        `${'a'.repeat(64)}.com`,
        `${'abcdefghi.'.repeat(26)}com`,
        'xn--zz.com',
        'http://',
        '*.example.com',
        '10.0.0.0/24',
        'example.com:99999',
        'fe80::1%eth0',
      ].map((t) => [t.slice(0, 20), (parseTarget(t) as { reason?: string }).reason]),
    );
    expect(Object.values(reasons)).toEqual([
      'empty',
      'too_long',
      'invalid_ip',
      'invalid_ip',
      'invalid_host_name',
      'label_too_long',
      'name_too_long',
      'invalid_punycode',
      'invalid_url',
      'wildcard_not_a_target',
      'block_not_a_target',
      'invalid_host_name',
      'invalid_ip',
    ]);
  });
});

describe('Perimeter - membership', () => {
  const perimeter = new Perimeter([
    inc('10.0.0.0/8'),
    exc('10.1.0.0/16'),
    exc('10.2.3.4'),
    inc('192.0.2.10-192.0.2.20'),
    inc('2001:db8::/32'),
    exc('2001:db8:dead::/48'),
    inc('2001:db8:ffff:ffff:ffff:ffff:ffff:ff00-2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'),
    inc('example.com'),
    inc('*.corp.example'),
    exc('*.dev.corp.example'),
    exc('admin.corp.example'),
    inc('пример.рф'),
  ]);
  const verdicts = (targets: string[]) => targets.map((t) => perimeter.verdict(t));

  it('IPv4 blocks and ranges with excludes carved out', () => {
    expect(
      verdicts([
        '10.0.0.1',
        '10.255.255.255',
        '10.1.2.3',
        '10.2.3.4',
        '10.2.3.5',
        '11.0.0.0',
        '9.255.255.255',
      ]),
    ).toEqual(['inside', 'inside', 'outside', 'outside', 'inside', 'outside', 'outside']);
    expect(verdicts(['192.0.2.9', '192.0.2.10', '192.0.2.20', '192.0.2.21'])).toEqual([
      'outside',
      'inside',
      'inside',
      'outside',
    ]);
  });

  it('IPv6 blocks and ranges with excludes carved out', () => {
    expect(
      verdicts([
        '2001:db8::1',
        '2001:db8:dead::1',
        '2001:db8:deae::1',
        '2001:db9::1',
        '[2001:db8::1]:443',
      ]),
    ).toEqual(['inside', 'outside', 'inside', 'outside', 'inside']);
  });

  it('names: exact names, wildcards (subdomains only), excludes, IDN in both forms, URLs', () => {
    expect(
      verdicts([
        'example.com',
        'www.example.com',
        'corp.example',
        'a.corp.example',
        'a.b.corp.example',
        'x.dev.corp.example',
        'dev.corp.example',
        'admin.corp.example',
        'ПРИМЕР.рф',
        'xn--e1afmkfd.xn--p1ai',
        'https://a.corp.example:8443/login',
        'https://example.com./',
      ]),
    ).toEqual([
      'inside',
      'outside',
      'outside',
      'inside',
      'inside',
      'outside',
      'inside',
      'outside',
      'inside',
      'inside',
      'inside',
      'inside',
    ]);
  });

  it('sorts a batch into inside, outside and invalid, keeping the input order', () => {
    expect(perimeter.filter([' 10.0.0.1 ', 'nope..com', '11.0.0.1', 'example.com'])).toEqual({
      inside: ['10.0.0.1', 'example.com'],
      outside: ['11.0.0.1'],
      invalid: [{ target: 'nope..com', reason: 'invalid_host_name' }],
    });
  });

  it('an empty perimeter holds nothing', () => {
    expect(new Perimeter([]).filter(['10.0.0.1', 'a.b']).inside).toEqual([]);
  });
});

describe('Perimeter - export', () => {
  it('subtracts address excludes into minimal blocks and lists what names cannot express', () => {
    const perimeter = new Perimeter([
      inc('10.0.0.0/24'),
      exc('10.0.0.128/25'),
      exc('10.0.0.5'),
      inc('10.0.1.0/24'),
      inc('192.0.2.7'),
      inc('2001:db8::/126'),
      exc('2001:db8::1'),
      inc('b.example.com'),
      inc('a.example.com'),
      exc('a.example.com.invalid'),
      inc('*.corp.example'),
      exc('dev.corp.example'),
      exc('*.lab.corp.example'),
      inc('*.old.example'),
      exc('*.old.example'),
    ]);
    expect(perimeter.exportTargets()).toEqual({
      targets: [
        '10.0.0.0/30',
        '10.0.0.4',
        '10.0.0.6/31',
        '10.0.0.8/29',
        '10.0.0.16/28',
        '10.0.0.32/27',
        '10.0.0.64/26',
        '10.0.1.0/24',
        '192.0.2.7',
        '2001:db8::',
        '2001:db8::2/127',
        '*.corp.example',
        'a.example.com',
        'b.example.com',
      ],
      excludes: ['*.lab.corp.example', 'dev.corp.example'],
    });
  });

  it('joins adjacent blocks before splitting them again', () => {
    const perimeter = new Perimeter([inc('10.0.0.0/25'), inc('10.0.0.128/25')]);
    expect(perimeter.exportTargets().targets).toEqual(['10.0.0.0/24']);
    expect(cidrBlocks(0n, 2n ** 32n - 1n, 32)).toEqual([[0n, 0]]);
  });
});

describe('Entry overlaps', () => {
  let n = 0;
  const indexed = (e: PerimeterEntry): IndexedEntry => ({ ref: `e${(n += 1)}`, ...e });
  const existing = [
    indexed(inc('10.0.0.0/16')),
    indexed(inc('10.2.0.0-10.2.0.255')),
    indexed(inc('2001:db8::/48')),
    indexed(inc('*.example.com')),
    indexed(inc('corp.example')),
    indexed(inc('a.corp.example')),
    indexed(exc('10.0.5.0/24')),
  ];
  const overlaps = new EntryOverlaps(existing);
  const conflict = (e: PerimeterEntry) => {
    const c = overlaps.conflict(e);
    return c ? `${c.kind} ${c.other.entry.value}` : 'ok';
  };

  it('refuses overlapping entries of one mode and names the existing one', () => {
    expect(conflict(inc('10.0.3.0/24'))).toBe('overlap 10.0.0.0/16');
    expect(conflict(inc('9.0.0.0/8'))).toBe('ok');
    expect(conflict(inc('10.1.255.255-10.2.0.0'))).toBe('overlap 10.2.0.0-10.2.0.255');
    expect(conflict(inc('10.2.1.0/24'))).toBe('ok');
    expect(conflict(inc('10.0.0.0/8'))).toBe('overlap 10.2.0.0-10.2.0.255');
    expect(conflict(inc('2001:db8::/32'))).toBe('overlap 2001:db8::/48');
    expect(conflict(inc('2001:db8:1::/48'))).toBe('ok');
    expect(conflict(inc('a.b.example.com'))).toBe('overlap *.example.com');
    expect(conflict(inc('example.com'))).toBe('ok');
    expect(conflict(inc('*.a.example.com'))).toBe('overlap *.example.com');
    expect(conflict(inc('*.corp.example'))).toBe('overlap a.corp.example');
    expect(conflict(inc('*.example.com'))).toBe('duplicate *.example.com');
    expect(conflict(inc('10.0.0.0/16'))).toBe('duplicate 10.0.0.0/16');
  });

  it('lets an exclude overlap includes, but not another exclude or the same value', () => {
    expect(conflict(exc('10.0.7.0/24'))).toBe('ok');
    expect(conflict(exc('10.0.5.128/25'))).toBe('overlap 10.0.5.0/24');
    expect(conflict(exc('corp.example'))).toBe('duplicate corp.example');
    expect(conflict(exc('dev.example.com'))).toBe('ok');
  });

  it('checks entries added one by one against each other', () => {
    const fresh = new EntryOverlaps();
    const a = indexed(inc('192.0.2.0/25'));
    expect(fresh.conflict(a)).toBeUndefined();
    fresh.add(a);
    expect(fresh.conflict(inc('192.0.2.100'))?.other.ref).toBe(a.ref);
    fresh.add(indexed(inc('192.0.2.200')));
    expect(fresh.conflict(inc('192.0.2.128-192.0.2.199'))).toBeUndefined();
    expect(fresh.conflict(inc('192.0.2.128-192.0.2.200'))?.other.entry.value).toBe('192.0.2.200');
  });
});

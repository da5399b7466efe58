import {
  parseCidr,
  parseIpAddress,
  parseIpv4,
  parseIpv6,
  rangeContains,
  unmapIpv4,
} from './ip-address';

describe('IP literals as a connect reads them', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0X7F000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['0x', '0.0.0.0'],
    ['1.2.3.0x', '1.2.3.0'],
    ['169.254.43518', '169.254.169.254'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['4294967295', '255.255.255.255'],
  ])('IPv4 %s is %s', (input, text) => {
    expect(parseIpv4(input)?.text).toBe(text);
  });

  it.each([
    '256.0.0.1',
    '1.2.3.4.5',
    '4294967296',
    '08.0.0.1',
    '1..2',
    '',
    '.',
    'a.b.c.d',
    '127.0.0.1x',
    '-1',
  ])('IPv4 %j is not an address', (input) => {
    expect(parseIpv4(input)).toBeUndefined();
  });

  it.each([
    ['::1', '::1'],
    ['::', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['::FFFF:7F00:1', '::ffff:7f00:1'],
    ['::127.0.0.1', '::7f00:1'],
    ['64:ff9b::10.0.0.1', '64:ff9b::a00:1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['fe80::1', 'fe80::1'],
    ['[::1]', '::1'],
  ])('IPv6 %s is %s', (input, text) => {
    expect(parseIpAddress(input)?.text).toBe(text);
  });

  it.each([
    'fe80::1%eth0',
    'fe80::1%25eth0',
    ':::1',
    '1::2::3',
    '12345::',
    '::ffff:127.1',
    '::ffff:0177.0.0.1',
    '1:2:3:4:5:6:7:8:9',
    'g::1',
  ])('IPv6 %j is not an address (zone ids refused)', (input) => {
    expect(parseIpv6(input)).toBeUndefined();
  });

  it('unmaps IPv4-mapped IPv6 only', () => {
    expect(unmapIpv4(parseIpAddress('::ffff:10.1.2.3')!)?.text).toBe('10.1.2.3');
    expect(unmapIpv4(parseIpAddress('::10.1.2.3')!)).toBeUndefined();
    expect(unmapIpv4(parseIpAddress('10.1.2.3')!)).toBeUndefined();
  });

  it('parses CIDR ranges and tests membership bit-exactly', () => {
    const range = parseCidr('10.1.2.0/23');
    if ('error' in range) throw new Error(range.error);
    expect(rangeContains(range, parseIpAddress('10.1.3.255')!)).toBe(true);
    expect(rangeContains(range, parseIpAddress('10.1.4.0')!)).toBe(false);
    expect(rangeContains(range, parseIpAddress('::ffff:10.1.2.1')!)).toBe(false);
    const v6 = parseCidr('2001:db8::/32');
    if ('error' in v6) throw new Error(v6.error);
    expect(rangeContains(v6, parseIpAddress('2001:db8:ffff::1')!)).toBe(true);
    expect(rangeContains(v6, parseIpAddress('2001:db9::1')!)).toBe(false);
    const host = parseCidr('192.168.1.7');
    expect('error' in host ? host.error : host.text).toBe('192.168.1.7/32');
  });

  it.each([
    ['10.0.0.1/8', /host bits set \(did you mean 10\.0\.0\.0\/8\?\)/],
    ['10.0.0.0/33', /prefix longer than 32/],
    ['0x0a000000/8', /not an IP address/],
    ['010.0.0.0/8', /not an IP address/],
    ['10.0.0.0/8/1', /not a CIDR range/],
    ['example.com/24', /not an IP address/],
    ['::/129', /prefix longer than 128/],
    ['10.0.0.0/x', /invalid prefix/],
  ])('refuses the CIDR %s', (input, message) => {
    const range = parseCidr(input);
    expect('error' in range ? range.error : 'parsed').toMatch(message);
  });
});

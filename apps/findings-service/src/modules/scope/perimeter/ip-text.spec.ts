import { formatIpv6, parseIp, parseIpv4, parseIpv6 } from './ip-text';

describe('IP text (strict notations)', () => {
  it('reads dotted quads and refuses other IPv4 spellings', () => {
    expect(parseIpv4('192.0.2.1')).toBe(0xc0000201);
    expect(parseIpv4('0.0.0.0')).toBe(0);
    expect(parseIpv4('255.255.255.255')).toBe(2 ** 32 - 1);
    for (const bad of [
      '010.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '1..2.3',
      '1.2.3.4.',
      '0x7f.0.0.1',
      ' 1.2.3.4',
      '',
    ]) {
      expect(parseIpv4(bad)).toBeUndefined();
    }
  });

  it('reads RFC 4291 IPv6 text, with :: once and an IPv4 tail', () => {
    expect(parseIpv6('::')).toBe(0n);
    expect(parseIpv6('::1')).toBe(1n);
    expect(parseIpv6('2001:DB8::1')).toBe(0x20010db8000000000000000000000001n);
    expect(parseIpv6('::ffff:192.0.2.1')).toBe(0xffffc0000201n);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toBe(0x00010002000300040005000600070008n);
    for (const bad of [
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '12345::',
      'fe80::1%eth0',
      ':1',
      '1:',
      'g::',
      '1:2:3:4:5:6:7::8:9',
    ]) {
      expect(parseIpv6(bad)).toBeUndefined();
    }
  });

  it('writes IPv6 in RFC 5952 form', () => {
    expect(formatIpv6(0x20010db8000000000000000000000001n)).toBe('2001:db8::1');
    expect(formatIpv6(0n)).toBe('::');
    expect(formatIpv6(0x20010db8000000010000000000000001n)).toBe('2001:db8:0:1::1');
    // a single zero group is not compressed; the first of two equal runs is
    expect(formatIpv6(0x20010db8000000010001000100010001n)).toBe('2001:db8:0:1:1:1:1:1');
    expect(formatIpv6(0x20010000000000010000000000010001n)).toBe('2001::1:0:0:1:1');
    expect(formatIpv6(0x20010000000000010000000000000001n)).toBe('2001:0:0:1::1');
    expect(formatIpv6(0xffffc0000201n)).toBe('::ffff:192.0.2.1');
  });

  it('tells the families apart', () => {
    expect(parseIp('192.0.2.1')).toEqual({ family: 4, value: 0xc0000201 });
    expect(parseIp('::2')).toEqual({ family: 6, value: 2n });
    expect(parseIp('example.com')).toBeUndefined();
  });
});

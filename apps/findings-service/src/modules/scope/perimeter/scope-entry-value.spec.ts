import { hostNameForDisplay } from './host-name';
import { parseEntryValue, type ParsedEntryResult } from './scope-entry-value';

const value = (r: ParsedEntryResult) => (r.ok ? `${r.entry.kind} ${r.entry.value}` : r.error.code);

describe('Scope entry values', () => {
  it('reads addresses, blocks and ranges in canonical form', () => {
    expect(value(parseEntryValue('192.0.2.7'))).toBe('ip 192.0.2.7');
    expect(value(parseEntryValue(' 10.0.0.0/8 '))).toBe('cidr 10.0.0.0/8');
    expect(value(parseEntryValue('10.1.2.3/32'))).toBe('ip 10.1.2.3');
    expect(value(parseEntryValue('2001:DB8:0::/48'))).toBe('cidr 2001:db8::/48');
    expect(value(parseEntryValue('2001:db8::5/128'))).toBe('ip 2001:db8::5');
    expect(value(parseEntryValue('10.0.0.10 - 10.0.0.99'))).toBe('range 10.0.0.10-10.0.0.99');
    expect(value(parseEntryValue('10.0.0.10-10.0.0.10'))).toBe('ip 10.0.0.10');
    expect(value(parseEntryValue('2001:db8::1-2001:db8::ff'))).toBe(
      'range 2001:db8::1-2001:db8::ff',
    );
    const block = parseEntryValue('10.1.0.0/16');
    expect(block.ok && block.entry.kind === 'cidr' && [block.entry.start, block.entry.end]).toEqual(
      [0x0a010000, 0x0a01ffff],
    );
  });

  it('refuses /0 and blocks or ranges wider than a /8 (IPv4) or /32 (IPv6)', () => {
    for (const wide of [
      '0.0.0.0/0',
      '::/0',
      '10.0.0.0/7',
      '2001::/31',
      '0.0.0.0-255.255.255.255',
      '10.0.0.0-11.0.0.0',
    ]) {
      expect(value(parseEntryValue(wide))).toBe('too_wide');
    }
    expect(value(parseEntryValue('10.0.0.0/8'))).toBe('cidr 10.0.0.0/8');
    expect(value(parseEntryValue('2001:db8::/32'))).toBe('cidr 2001:db8::/32');
    expect(value(parseEntryValue('10.0.0.0-10.255.255.255'))).toBe('range 10.0.0.0-10.255.255.255');
  });

  it('refuses host bits, reversed and mixed ranges, mapped addresses and garbage', () => {
    const bits = parseEntryValue('10.0.0.1/8');
    expect(!bits.ok && bits.error).toMatchObject({ code: 'host_bits', network: '10.0.0.0/8' });
    for (const bad of [
      '10.0.0.9-10.0.0.1',
      '10.0.0.1-2001:db8::1',
      '::ffff:10.0.0.1',
      '10.0.0.0/33',
      '10.0.0.0/x',
      '1.2.3',
      '010.0.0.1',
      'https://example.com/',
      'exa mple.com',
      'a..b.com',
      '-a.example.com',
      '',
      '<script>',
      'x'.repeat(301),
    ]) {
      expect([bad, value(parseEntryValue(bad))]).toEqual([
        bad,
        expect.stringMatching(/^(invalid|name_too_long)$/),
      ]);
    }
  });

  it('reads names and wildcards; a wildcard only as the whole leftmost label of two more', () => {
    expect(value(parseEntryValue('Example.COM.'))).toBe('domain example.com');
    expect(value(parseEntryValue('*.example.com'))).toBe('wildcard *.example.com');
    expect(value(parseEntryValue('*.a.b.example.com'))).toBe('wildcard *.a.b.example.com');
    expect(value(parseEntryValue('_dmarc.example.com'))).toBe('domain _dmarc.example.com');
    for (const bad of [
      '*.com',
      '*',
      'a.*.example.com',
      '*a.example.com',
      'a*.example.com',
      '*.*.example.com',
      '**.example.com',
    ]) {
      expect([bad, value(parseEntryValue(bad))]).toEqual([bad, 'wildcard_invalid']);
    }
  });

  it('stores IDN names in punycode and shows them in Unicode', () => {
    expect(value(parseEntryValue('Пример.РФ'))).toBe('domain xn--e1afmkfd.xn--p1ai');
    expect(value(parseEntryValue('*.münchen.de'))).toBe('wildcard *.xn--mnchen-3ya.de');
    expect(value(parseEntryValue('xn--e1afmkfd.xn--p1ai'))).toBe('domain xn--e1afmkfd.xn--p1ai');
    expect(hostNameForDisplay('xn--e1afmkfd.xn--p1ai')).toBe('пример.рф');
    expect(hostNameForDisplay('*.xn--mnchen-3ya.de')).toBe('*.münchen.de');
    expect(hostNameForDisplay('example.com')).toBe('example.com');
  });

  it('refuses invalid punycode, labels over 63 and names over 253 characters', () => {
    expect(value(parseEntryValue('xn--zz.example.com'))).toBe('punycode_invalid');
    expect(value(parseEntryValue('xn--ab-mma.com'))).toBe('punycode_invalid');
    expect(value(parseEntryValue(`${'a'.repeat(64)}.example.com`))).toBe('name_too_long');
    expect(value(parseEntryValue(`${'a'.repeat(63)}.example.com`))).toBe(
      `domain ${'a'.repeat(63)}.example.com`,
    );
    const long = `${Array.from({ length: 4 }, () => 'a'.repeat(62)).join('.')}.com`; // 255
    expect(value(parseEntryValue(long))).toBe('name_too_long');
    expect(value(parseEntryValue(`${'я'.repeat(64)}.рф`))).toBe('name_too_long');
  });
});

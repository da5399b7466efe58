import { equalityFilter, escapeFilterValue } from './ldap-filter';
import { sidBytes, sidText } from './object-sid';
import { upnProblem } from './upn';

describe('objectSid to its string form (MS-DTYP 2.4.2)', () => {
  it('reads the binary form: revision, authority big-endian, sub-authorities little-endian', () => {
    expect(
      sidText(Buffer.from('010500000000000515000000c7f7fed77c7755c8945ace01f5030000', 'hex')),
    ).toBe('S-1-5-21-3623811015-3361044348-30300820-1013');
    expect(sidText(Buffer.from('01020000000000052000000020020000', 'hex'))).toBe('S-1-5-32-544');
    expect(sidText(Buffer.from('010100000000000100000000', 'hex'))).toBe('S-1-1-0');
    // authority >= 2^32 is written in hex
    expect(sidText(Buffer.from('01010000ffffffff00000000', 'hex'))).toBe('S-1-4294967295-0');
    expect(sidText(Buffer.from('01010100000000ff00000000', 'hex'))).toBe('S-1-0x0100000000FF-0');
  });

  it('refuses damaged binary forms and accepts a string SID', () => {
    expect(sidText(Buffer.from('02020000000000052000000020020000', 'hex'))).toBeUndefined();
    expect(sidText(Buffer.from('010300000000000520000000', 'hex'))).toBeUndefined();
    expect(sidText(Buffer.alloc(3))).toBeUndefined();
    expect(sidText('S-1-5-21-1-2-3-500')).toBe('S-1-5-21-1-2-3-500');
    expect(sidText('s-1-5-32-544')).toBe('S-1-5-32-544');
    expect(sidText('alice')).toBeUndefined();
    expect(sidText('S-1-5-')).toBeUndefined();
  });

  it('round-trips through sidBytes', () => {
    const text = 'S-1-5-21-1004336348-1177238915-682003330-512';
    expect(sidText(sidBytes(text))).toBe(text);
  });
});

describe('RFC 4515 filter value escaping', () => {
  it('escapes the filter specials, NUL and control characters; UTF-8 stays', () => {
    expect(escapeFilterValue('alice@corp.example')).toBe('alice@corp.example');
    expect(escapeFilterValue('*')).toBe('\\2a');
    expect(escapeFilterValue('a)(uid=*')).toBe('a\\29\\28uid=\\2a');
    expect(escapeFilterValue('back\\slash')).toBe('back\\5cslash');
    expect(escapeFilterValue('nul\u0000x')).toBe('nul\\00x');
    expect(escapeFilterValue('jörg')).toBe('jörg');
    expect(escapeFilterValue('a\u007fb\u001fc')).toBe('a\\7fb\\1fc');
    expect(equalityFilter('userPrincipalName', '*)(|(objectClass=*')).toBe(
      '(userPrincipalName=\\2a\\29\\28|\\28objectClass=\\2a)',
    );
  });

  it('refuses an attribute description that is not one', () => {
    expect(() => equalityFilter('upn)(x', 'a')).toThrow();
    expect(equalityFilter('1.2.840.113556.1.4.656', 'a')).toBe('(1.2.840.113556.1.4.656=a)');
  });
});

describe('UPN shape', () => {
  it('one @, both sides, bounded, no controls', () => {
    expect(upnProblem('alice@corp.example')).toBeUndefined();
    expect(upnProblem('a*b@corp')).toBeUndefined();
    for (const bad of [
      '',
      'alice',
      '@corp',
      'alice@',
      'a@b@c',
      'al ice@corp',
      'a\u0000@b',
      'a\n@b',
    ]) {
      expect(upnProblem(bad)).toEqual(expect.any(String));
    }
    expect(upnProblem(`${'a'.repeat(250)}@corp.example`)).toEqual(expect.any(String));
  });
});

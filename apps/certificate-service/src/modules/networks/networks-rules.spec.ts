import { isMacosPlatform } from './agent-networks.service';
import { RADIUS_NAME_PATTERN } from './dto/network.dto';
import { isValidSsid, normalizeRadiusNames } from './networks.service';

describe('network rules', () => {
  it('counts the SSID in bytes of UTF-8 (1 to 32) and refuses control characters', () => {
    expect(isValidSsid('a')).toBe(true);
    expect(isValidSsid('x'.repeat(32))).toBe(true);
    expect(isValidSsid('é'.repeat(16))).toBe(true);
    expect(isValidSsid('é'.repeat(17))).toBe(false);
    expect(isValidSsid('😀'.repeat(9))).toBe(false);
    expect(isValidSsid('')).toBe(false);
    expect(isValidSsid('x'.repeat(33))).toBe(false);
    expect(isValidSsid('a\tb')).toBe(false);
    expect(isValidSsid('a\u0085b')).toBe(false);
  });

  it('recognises macOS under its usual platform names only', () => {
    for (const p of ['macos', 'macOS 14.2', 'Mac OS X', 'MacOSX', 'osx', 'Darwin 23.1.0']) {
      expect({ p, mac: isMacosPlatform(p) }).toEqual({ p, mac: true });
    }
    for (const p of [null, 'windows', 'linux', 'ubuntu', 'machine', 'ios']) {
      expect({ p, mac: isMacosPlatform(p) }).toEqual({ p, mac: false });
    }
  });

  it('accepts DNS names as RADIUS server names, lower-cased and deduplicated', () => {
    for (const ok of ['radius', 'r1.corp.example', 'a-b.c0', `${'a'.repeat(63)}.example`]) {
      expect(RADIUS_NAME_PATTERN.test(ok)).toBe(true);
    }
    for (const bad of [
      '',
      '-r.corp',
      'r-.corp',
      'r..corp',
      'r_1.corp',
      '*.corp',
      'r.corp.',
      `${'a'.repeat(64)}.x`,
    ]) {
      expect({ bad, ok: RADIUS_NAME_PATTERN.test(bad) }).toEqual({ bad, ok: false });
    }
    expect(normalizeRadiusNames(['R1.Corp', 'r1.corp', 'r2'])).toEqual(['r1.corp', 'r2']);
  });
});

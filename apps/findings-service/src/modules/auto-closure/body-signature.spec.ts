import { createHmac } from 'node:crypto';
import { parseTimestamp, signatureMatches, signBody } from './body-signature';

describe('body signature', () => {
  const body = Buffer.from('{"results":[]}');

  it('is HMAC-SHA256 over "<timestamp>.<body>" as v1=<hex> (what the docs tell scanners)', () => {
    const hex = createHmac('sha256', 'k').update('1700000000.{"results":[]}').digest('hex');
    expect(signBody('k', 1_700_000_000, body)).toBe(`v1=${hex}`);
  });

  it('matches only the same secret, timestamp and bytes', () => {
    const header = signBody('secret', 1_700_000_000, body);
    expect(signatureMatches('secret', 1_700_000_000, body, header)).toBe(true);
    expect(signatureMatches('other', 1_700_000_000, body, header)).toBe(false);
    expect(signatureMatches('secret', 1_700_000_001, body, header)).toBe(false);
    expect(signatureMatches('secret', 1_700_000_000, Buffer.from('{"results":[ ]}'), header)).toBe(
      false,
    );
    expect(signatureMatches('secret', 1_700_000_000, body, 'v1=00')).toBe(false);
    expect(signatureMatches('secret', 1_700_000_000, body, '')).toBe(false);
  });

  it('accepts a list of signatures (a sender signing with both keys during a rotation)', () => {
    const header = `${signBody('old', 5, body)}, ${signBody('new', 5, body)}`;
    expect(signatureMatches('new', 5, body, header)).toBe(true);
    expect(signatureMatches('old', 5, body, header)).toBe(true);
  });

  it('reads only plain Unix seconds', () => {
    expect(parseTimestamp('1700000000')).toBe(1_700_000_000);
    for (const bad of [undefined, '', '-1', '1.5', '1e9', ' 12', '1234567890123']) {
      expect(parseTimestamp(bad)).toBeUndefined();
    }
  });
});

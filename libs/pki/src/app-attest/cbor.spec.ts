import { encodeTestCbor } from '../testing/app-attest-fixture';
import { CborError, decodeCbor } from './cbor';

const hex = (h: string) => Buffer.from(h.replace(/\s/g, ''), 'hex');

describe('decodeCbor', () => {
  it('reads integers, strings, byte strings, arrays, maps and simple values', () => {
    expect(decodeCbor(hex('00'))).toBe(0);
    expect(decodeCbor(hex('1818'))).toBe(24);
    expect(decodeCbor(hex('1a000f4240'))).toBe(1_000_000);
    expect(decodeCbor(hex('20'))).toBe(-1);
    expect(decodeCbor(hex('3863'))).toBe(-100);
    expect(decodeCbor(hex('6449455446'))).toBe('IETF');
    expect(decodeCbor(hex('4401020304'))).toEqual(Buffer.from([1, 2, 3, 4]));
    expect(decodeCbor(hex('83010203'))).toEqual([1, 2, 3]);
    expect(decodeCbor(hex('f4'))).toBe(false);
    expect(decodeCbor(hex('f5'))).toBe(true);
    expect(decodeCbor(hex('f6'))).toBeNull();
    const map = decodeCbor(hex('a26161016162820203'));
    expect(map).toEqual(
      new Map<string, unknown>([
        ['a', 1],
        ['b', [2, 3]],
      ]),
    );
  });

  it('round-trips what the test encoder writes', () => {
    const value = new Map<string, never>([
      ['fmt', 'apple-appattest' as never],
      ['big', Buffer.alloc(70_000, 7) as never],
      ['list', [1, 'x', Buffer.from('y')] as never],
    ]);
    expect(decodeCbor(encodeTestCbor(value))).toEqual(value);
  });

  const refusals: Array<[string, string, RegExp]> = [
    ['empty input', '', /truncated/],
    ['indefinite byte string', '5f42010243030405ff', /indefinite/],
    ['indefinite array', '9f0102ff', /indefinite/],
    ['indefinite map', 'bf616101ff', /indefinite/],
    ['break byte', 'ff', /indefinite/],
    ['a tag (epoch time)', 'c11a514b67b0', /tags/],
    ['a tag around a byte string', 'd8184100', /tags/],
    ['a float', 'fb3ff199999999999a', /floats/],
    ['a half float', 'f93c00', /floats/],
    ['undefined', 'f7', /floats and other simple/],
    ['reserved additional information', '1c', /reserved/],
    ['8-byte integer beyond 2^53', '1bffffffffffffffff', /too large/],
    ['byte string longer than the input', '5a7fffffff00', /beyond the input/],
    ['text string longer than the input', '7a0000000a41', /beyond the input/],
    ['array count beyond the input', '9a7fffffff', /beyond the input/],
    ['map count beyond the input', 'ba0000ffff0000', /beyond the input/],
    ['truncated argument', '19 01', /truncated/],
    ['truncated array', '830102', /beyond the input/],
    ['truncated nested item', '820119', /truncated/],
    ['trailing bytes', '0000', /trailing/],
    ['invalid UTF-8', '62c328', /UTF-8/],
    ['a byte-string map key', 'a1410001', /keys/],
    ['an array map key', 'a1810001', /keys/],
    ['a duplicate map key', 'a2616101616102', /duplicate/],
  ];
  it.each(refusals)('refuses %s', (_what, input, message) => {
    expect(() => decodeCbor(hex(input))).toThrow(CborError);
    expect(() => decodeCbor(hex(input))).toThrow(message);
  });

  it('refuses nesting deeper than 8 (and the limit is configurable)', () => {
    const nested = (n: number) => Buffer.concat([Buffer.alloc(n, 0x81), Buffer.from([0x00])]);
    expect(decodeCbor(nested(8))).toBeDefined();
    expect(() => decodeCbor(nested(9))).toThrow(/nesting/);
    expect(() => decodeCbor(nested(3), { maxDepth: 2 })).toThrow(/nesting/);
    // A million-deep array: refused at depth 9, no stack overflow.
    expect(() => decodeCbor(nested(1_000_000))).toThrow(/nesting/);
  });

  it('never throws anything but CborError on random input', () => {
    for (let i = 0; i < 3000; i++) {
      const input = Buffer.from(
        Array.from({ length: 1 + (i % 40) }, () => Math.floor(Math.random() * 256)),
      );
      try {
        decodeCbor(input);
      } catch (error) {
        expect(error).toBeInstanceOf(CborError);
      }
    }
  });
});

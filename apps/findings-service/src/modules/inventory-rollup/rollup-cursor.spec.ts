import { decodeRollupCursor, encodeRollupCursor } from './rollup-cursor';

describe('roll-up cursor', () => {
  it('round-trips and is bound to its axis, sort and order', () => {
    const text = encodeRollupCursor({
      axis: 'host',
      sort: 'total',
      order: 'desc',
      value: 7,
      key: 'a b',
    });
    expect(decodeRollupCursor(text, 'host', 'total', 'desc')).toEqual({
      axis: 'host',
      sort: 'total',
      order: 'desc',
      value: 7,
      key: 'a b',
    });
    expect(decodeRollupCursor(text, 'package', 'total', 'desc')).toBeUndefined();
    expect(decodeRollupCursor(text, 'host', 'critical', 'desc')).toBeUndefined();
    expect(decodeRollupCursor(text, 'host', 'total', 'asc')).toBeUndefined();
  });

  it('refuses garbage, fractions and a value on a key sort', () => {
    expect(decodeRollupCursor('%%%', 'host', 'total', 'desc')).toBeUndefined();
    const raw = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    expect(
      decodeRollupCursor(
        raw({ a: 'cve', s: 'total', o: 'desc', v: 1.5, k: 'x' }),
        'cve',
        'total',
        'desc',
      ),
    ).toBeUndefined();
    expect(
      decodeRollupCursor(raw({ a: 'cve', s: 'key', o: 'asc', v: 3, k: 'x' }), 'cve', 'key', 'asc'),
    ).toBeUndefined();
    expect(
      decodeRollupCursor(
        raw({ a: 'cve', s: 'key', o: 'asc', v: null, k: 'x' }),
        'cve',
        'key',
        'asc',
      ),
    ).toBeDefined();
  });
});

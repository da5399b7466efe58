import { decodeCursor, encodeCursor } from './finding-cursor';

const id = '0b6f1c1e-8f0a-4c51-9a39-5b1b8a1f2c3d';

describe('finding cursor', () => {
  it('round-trips for its own sort and order only', () => {
    const ts = encodeCursor({
      sort: 'created_at',
      order: 'desc',
      value: '2025-01-01 00:00:00.000001+00',
      id,
    });
    expect(decodeCursor(ts, 'created_at', 'desc')).toEqual({
      sort: 'created_at',
      order: 'desc',
      value: '2025-01-01 00:00:00.000001+00',
      id,
    });
    expect(decodeCursor(ts, 'created_at', 'asc')).toBeUndefined();
    expect(decodeCursor(ts, 'severity', 'desc')).toBeUndefined();
    const rank = encodeCursor({ sort: 'severity', order: 'asc', value: 4, id });
    expect(decodeCursor(rank, 'severity', 'asc')?.value).toBe(4);
  });

  it.each([
    'not base64 json',
    Buffer.from('[]').toString('base64url'),
    Buffer.from(JSON.stringify({ s: 'severity', o: 'desc', v: 'x', i: id })).toString('base64url'),
    Buffer.from(JSON.stringify({ s: 'created_at', o: 'desc', v: "'; drop", i: id })).toString(
      'base64url',
    ),
    Buffer.from(JSON.stringify({ s: 'id', o: 'desc', v: null, i: 'nope' })).toString('base64url'),
  ])('refuses %j', (text) => {
    for (const sort of ['severity', 'created_at', 'id'] as const) {
      expect(decodeCursor(text, sort, 'desc')).toBeUndefined();
    }
  });
});

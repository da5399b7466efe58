import { parseTestDatabaseMarker, testDatabaseMarker } from './test-database-marker';

describe('test database marker', () => {
  it('round-trips state, creation time and run', () => {
    const marker = { createdAt: 1_700_000_000_000, state: 'ready' as const, runId: 'r17_42' };
    expect(testDatabaseMarker(marker)).toBe(
      'platform-test created=1700000000000 state=ready run=r17_42',
    );
    expect(parseTestDatabaseMarker(testDatabaseMarker(marker))).toEqual(marker);
  });

  it('does not claim databases it did not mark', () => {
    expect(parseTestDatabaseMarker(null)).toBeUndefined();
    expect(parseTestDatabaseMarker('production data, keep')).toBeUndefined();
  });
});

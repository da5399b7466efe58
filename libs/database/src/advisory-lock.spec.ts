import { advisoryLockKey } from './advisory-lock';

describe('advisoryLockKey', () => {
  const int64Min = -(2n ** 63n);
  const int64Max = 2n ** 63n - 1n;

  it('is stable for a name', () => {
    expect(advisoryLockKey('findings-migrations')).toBe(advisoryLockKey('findings-migrations'));
    // Pinned: replicas of different builds must agree on the key.
    expect(advisoryLockKey('findings-migrations')).toBe('1171627981573332981');
  });

  it('gives different names different keys', () => {
    expect(advisoryLockKey('findings-migrations')).not.toBe(
      advisoryLockKey('certificates-migrations'),
    );
  });

  it('fits a PostgreSQL bigint', () => {
    for (const name of ['a', 'findings-migrations', 'x'.repeat(500), 'ünïcode']) {
      const key = BigInt(advisoryLockKey(name));
      expect(key >= int64Min && key <= int64Max).toBe(true);
    }
  });
});

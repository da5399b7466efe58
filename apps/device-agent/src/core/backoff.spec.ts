import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const policy = { baseMs: 2_000, capMs: 300_000 };

  it('doubles from the base up to the cap, between half the ceiling and the ceiling', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(policy, n, () => 1))).toEqual([
      2_000, 4_000, 8_000, 16_000,
    ]);
    expect(backoffDelay(policy, 0, () => 0)).toBe(1_000);
    expect(backoffDelay(policy, 12, () => 1)).toBe(300_000);
    expect(backoffDelay(policy, 1_000, () => 0)).toBe(150_000);
  });

  it('spreads agents that fail at the same moment (jitter)', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(policy, 5)));
    expect(delays.size).toBeGreaterThan(40);
  });
});

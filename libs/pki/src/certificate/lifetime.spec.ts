import { addLifetime, Lifetime, lifetimeProblem, parseLifetime } from './lifetime';

const at = (iso: string, lifetime: Lifetime): string =>
  addLifetime(new Date(iso), lifetime).toISOString();

describe('certificate lifetimes in calendar units', () => {
  it('adds calendar years in UTC, keeping the time of day', () => {
    expect(at('2026-03-01T12:34:56.000Z', { unit: 'years', amount: 3 })).toBe(
      '2029-03-01T12:34:56.000Z',
    );
    // three calendar years across a leap day are 1 096 days, not 1 095
    expect(at('2025-03-01T00:00:00.000Z', { unit: 'years', amount: 3 })).toBe(
      '2028-03-01T00:00:00.000Z',
    );
    expect(at('2026-12-31T23:59:59.000Z', { unit: 'years', amount: 1 })).toBe(
      '2027-12-31T23:59:59.000Z',
    );
  });

  it('maps Feb 29 to Feb 28 in a common year and keeps it in a leap year', () => {
    expect(at('2024-02-29T10:00:00.000Z', { unit: 'years', amount: 1 })).toBe(
      '2025-02-28T10:00:00.000Z',
    );
    expect(at('2024-02-29T10:00:00.000Z', { unit: 'years', amount: 3 })).toBe(
      '2027-02-28T10:00:00.000Z',
    );
    expect(at('2024-02-29T10:00:00.000Z', { unit: 'years', amount: 4 })).toBe(
      '2028-02-29T10:00:00.000Z',
    );
  });

  it('adds months, clamping to the last day of a shorter month', () => {
    expect(at('2026-01-31T08:00:00.000Z', { unit: 'months', amount: 1 })).toBe(
      '2026-02-28T08:00:00.000Z',
    );
    expect(at('2024-01-31T08:00:00.000Z', { unit: 'months', amount: 1 })).toBe(
      '2024-02-29T08:00:00.000Z',
    );
    expect(at('2025-08-31T08:00:00.000Z', { unit: 'months', amount: 18 })).toBe(
      '2027-02-28T08:00:00.000Z',
    );
    expect(at('2026-11-30T08:00:00.000Z', { unit: 'months', amount: 14 })).toBe(
      '2028-01-30T08:00:00.000Z',
    );
  });

  it('adds hours and minutes as fixed durations (ssh 24 h, k8s 10 min)', () => {
    expect(at('2026-03-28T12:00:00.000Z', { unit: 'hours', amount: 24 })).toBe(
      '2026-03-29T12:00:00.000Z',
    );
    expect(at('2026-03-28T23:55:00.000Z', { unit: 'minutes', amount: 10 })).toBe(
      '2026-03-29T00:05:00.000Z',
    );
  });

  it('reads 3y, 18mo, 400d, 36h and their long forms; refuses anything else', () => {
    expect(parseLifetime('3y')).toEqual({ unit: 'years', amount: 3 });
    expect(parseLifetime('3 years')).toEqual({ unit: 'years', amount: 3 });
    expect(parseLifetime('1 YEAR')).toEqual({ unit: 'years', amount: 1 });
    expect(parseLifetime('18mo')).toEqual({ unit: 'months', amount: 18 });
    expect(parseLifetime('18 months')).toEqual({ unit: 'months', amount: 18 });
    expect(parseLifetime('400d')).toEqual({ unit: 'days', amount: 400 });
    expect(parseLifetime('36h')).toEqual({ unit: 'hours', amount: 36 });
    for (const text of ['', '3', 'y', '1.5y', '-1y', '3m', '3 weeks', '3y2mo', '9999999d'])
      expect(parseLifetime(text)).toBeUndefined();
  });

  it('allows at most ten years in any unit', () => {
    expect(lifetimeProblem({ unit: 'years', amount: 10 })).toBeUndefined();
    expect(lifetimeProblem({ unit: 'months', amount: 120 })).toBeUndefined();
    expect(lifetimeProblem({ unit: 'days', amount: 3653 })).toBeUndefined();
    expect(lifetimeProblem({ unit: 'years', amount: 11 })).toMatch(/10 years/);
    expect(lifetimeProblem({ unit: 'months', amount: 121 })).toMatch(/10 years/);
    expect(lifetimeProblem({ unit: 'days', amount: 3654 })).toMatch(/10 years/);
    expect(lifetimeProblem({ unit: 'hours', amount: 0 })).toMatch(/positive/);
    expect(lifetimeProblem({ unit: 'days', amount: 1.5 })).toMatch(/positive/);
  });
});

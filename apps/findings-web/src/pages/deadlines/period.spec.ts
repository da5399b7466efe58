import { parsePeriod } from './period';

describe('the dashboards period', () => {
  it('a whole number of days from 1 to 365', () => {
    expect(parsePeriod('1')).toBe(1);
    expect(parsePeriod(' 30 ')).toBe(30);
    expect(parsePeriod('365')).toBe(365);
  });

  it('anything else is refused, never clamped', () => {
    for (const text of ['', '0', '366', '7.5', '1e2', '-3', '30d', '0365', 'abc']) {
      expect(parsePeriod(text)).toBeUndefined();
    }
  });
});

import { endOfDay, isoDay } from './day-input';

describe('days picked in the status forms', () => {
  it('isoDay counts whole days from now as YYYY-MM-DD', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(isoDay(0, now)).toBe('2026-11-28');
    expect(isoDay(30, now)).toBe('2026-12-28');
    expect(isoDay(90, now)).toBe('2027-02-26');
  });

  it('endOfDay is the last minute of the picked day in local time, not its start', () => {
    const end = new Date(endOfDay('2026-12-01'));
    expect([end.getFullYear(), end.getMonth(), end.getDate()]).toEqual([2026, 11, 1]);
    expect([end.getHours(), end.getMinutes()]).toEqual([23, 59]);
  });
});

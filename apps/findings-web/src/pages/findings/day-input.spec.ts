import { endOfDay, isoDay, parseTypedDay } from './day-input';

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

describe('days typed into a picker', () => {
  it('reads day/month/year with the locale separators, and ISO days', () => {
    expect(parseTypedDay('25/11/2026')).toBe('2026-11-25');
    expect(parseTypedDay('25.11.2026')).toBe('2026-11-25');
    expect(parseTypedDay(' 5.1.27 ')).toBe('2027-01-05');
    expect(parseTypedDay('2026-11-25')).toBe('2026-11-25');
  });

  it('refuses what is no real day', () => {
    expect(parseTypedDay('31/02/2026')).toBeNull();
    expect(parseTypedDay('11/25/2026')).toBeNull();
    expect(parseTypedDay('tomorrow')).toBeNull();
    expect(parseTypedDay('')).toBeNull();
  });
});

import { formatDate, formatDay } from './dates';

describe('dates', () => {
  it('writes a moment as day/month/year and time in the UI language', () => {
    const at = '2026-11-25T14:03:00Z';
    const local = new Date(at);
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = [pad(local.getDate()), pad(local.getMonth() + 1), local.getFullYear()];
    const time = `${pad(local.getHours())}:${pad(local.getMinutes())}`;
    expect(formatDate(at, 'en')).toBe(`${day.join('/')}, ${time}`);
    expect(formatDate(at, 'ru')).toBe(`${day.join('.')}, ${time}`);
    // The same text as the Date's own locale formatting (the shared formatter changes no output).
    expect(formatDate(at, 'en')).toBe(
      local.toLocaleString('en-GB', {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      }),
    );
  });

  it('writes a calendar day as that day, whatever the time zone', () => {
    expect(formatDay('2026-02-28', 'en')).toBe('28/02/2026');
    expect(formatDay('2026-02-28', 'ru')).toBe('28.02.2026');
  });

  it('shows a dash for nothing and the raw text for what is not a date, never throwing', () => {
    expect(formatDate(null, 'en')).toBe('—');
    expect(formatDay(undefined, 'ru')).toBe('—');
    expect(formatDate('not a date', 'en')).toBe('not a date');
    expect(formatDay('2026-13-45', 'en')).toBe('2026-13-45');
  });
});

import { readFilters, toQuery, writeFilters } from './audit-filters';

describe('audit filters', () => {
  it('round-trips through the URL and drops unknown or malformed values', () => {
    const search = new URLSearchParams(
      'action=user.create&actor=%20a%40b.test%20&since=2026-11-02&until=not-a-day&x=1',
    );
    const filters = readFilters(search);
    expect(filters).toEqual({ action: 'user.create', actor: 'a@b.test', since: '2026-11-02' });
    expect(writeFilters(filters).toString()).toBe(
      'action=user.create&actor=a%40b.test&since=2026-11-02',
    );
    expect(writeFilters({}).toString()).toBe('');
  });

  it('asks for whole days in the local time zone, the until day included', () => {
    const query = toQuery({ since: '2026-11-02', until: '2026-11-03' });
    expect(new Date(query.since ?? '').getTime()).toBe(new Date(2026, 10, 2).getTime());
    // Records before the start of the day after `until`.
    expect(new Date(query.until ?? '').getTime()).toBe(new Date(2026, 10, 4).getTime());
    expect(toQuery({})).toEqual({});
  });
});

// Dates picked as days in the status forms, and what the API receives for them.

const DAY_MS = 24 * 60 * 60 * 1000;

/** The day `offsetDays` from `now`, as a date input's `YYYY-MM-DD` (UTC day). */
export function isoDay(offsetDays: number, now: number = Date.now()): string {
  return new Date(now + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The end of a picked day in the browser's time zone, as the API's date-time: a date "until
 * 1 December" holds through that day, not to its first minute.
 */
export function endOfDay(day: string): string {
  return new Date(`${day}T23:59:00`).toISOString();
}

/**
 * A day typed in the pickers' format (day, month, year: `25/11/2026`, `25.11.2026`, also with
 * `-` and a two-digit year, or ISO `2026-11-25`) as `YYYY-MM-DD`; null when it is no real day.
 */
export function parseTypedDay(text: string): string | null {
  const value = text.trim();
  let day: number, month: number, year: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  const dmy = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/.exec(value);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dmy) {
    [day, month, year] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
    if (dmy[3].length === 2) year += 2000;
  } else return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null;
  return date.toISOString().slice(0, 10);
}

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

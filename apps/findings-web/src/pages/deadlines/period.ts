/**
 * The dashboards' period as typed: a whole number of days from 1 to 365 in plain digits (what
 * the API accepts; it never clamps), else undefined — the field shows why and nothing is sent.
 */
export function parsePeriod(text: string): number | undefined {
  const value = text.trim();
  if (!/^\d{1,3}$/.test(value)) return undefined;
  const days = Number(value);
  return days >= 1 && days <= 365 ? days : undefined;
}

import { PkiError } from '../pki.errors';

/**
 * A certificate lifetime as the specification states it. Years and months are calendar
 * units added in UTC (see `addLifetime`); days, hours and minutes are fixed durations.
 */
export interface Lifetime {
  readonly unit: 'years' | 'months' | 'days' | 'hours' | 'minutes';
  readonly amount: number;
}

const MAX_MONTHS = 120;
/** Ten calendar years are at most 3 653 days long. */
const MAX_MINUTES = 3653 * 24 * 60;

function exceedsTenYears(lifetime: Lifetime): boolean {
  switch (lifetime.unit) {
    case 'years':
      return lifetime.amount * 12 > MAX_MONTHS;
    case 'months':
      return lifetime.amount > MAX_MONTHS;
    case 'days':
      return lifetime.amount * 24 * 60 > MAX_MINUTES;
    case 'hours':
      return lifetime.amount * 60 > MAX_MINUTES;
    case 'minutes':
      return lifetime.amount > MAX_MINUTES;
  }
}

/** Why the lifetime cannot be used (non-integer, non-positive, over ten years), if it cannot. */
export function lifetimeProblem(lifetime: Lifetime): string | undefined {
  if (!Number.isInteger(lifetime.amount) || lifetime.amount <= 0) {
    return 'lifetime must be a positive integer amount';
  }
  return exceedsTenYears(lifetime) ? 'lifetime must not exceed 10 years' : undefined;
}

export function validateLifetime(lifetime: Lifetime): Lifetime {
  const problem = lifetimeProblem(lifetime);
  if (problem) throw new PkiError('lifetime_invalid', problem);
  return lifetime;
}

/**
 * `start` plus the lifetime. Years and months move the UTC calendar date and keep the time of
 * day; a day that the target month lacks becomes its last day (Feb 29 + 1 year = Feb 28,
 * Jan 31 + 1 month = Feb 28 or 29), so a certificate never outlives its stated lifetime.
 */
export function addLifetime(start: Date, lifetime: Lifetime): Date {
  switch (lifetime.unit) {
    case 'years':
    case 'months':
      return addCalendarMonths(
        start,
        lifetime.unit === 'years' ? lifetime.amount * 12 : lifetime.amount,
      );
    case 'days':
      return new Date(start.getTime() + lifetime.amount * 86_400_000);
    case 'hours':
      return new Date(start.getTime() + lifetime.amount * 3_600_000);
    case 'minutes':
      return new Date(start.getTime() + lifetime.amount * 60_000);
  }
}

function addCalendarMonths(start: Date, months: number): Date {
  const monthIndex = start.getUTCMonth() + months;
  const year = start.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = new Date(start.getTime());
  end.setUTCFullYear(year, month, Math.min(start.getUTCDate(), lastDay));
  return end;
}

const LIFETIME_TEXT = /^(\d{1,6})\s*(y|years?|mo|months?|d|days?|h|hours?)$/i;
const UNIT_OF: Record<string, Lifetime['unit']> = {
  y: 'years',
  mo: 'months',
  d: 'days',
  h: 'hours',
};

/** `3y`, `18mo`, `400d`, `36h` (or `3 years`, `18 months`, ...); undefined when unreadable. */
export function parseLifetime(text: string): Lifetime | undefined {
  const match = LIFETIME_TEXT.exec(text.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const word = match[2].toLowerCase();
  const unit = UNIT_OF[word.startsWith('mo') ? 'mo' : word.charAt(0)];
  return unit ? { unit, amount: Number(match[1]) } : undefined;
}

import { PkiError } from '../pki.errors';

/** A certificate lifetime in calendar units (years are calendar years in UTC). */
export interface Lifetime {
  readonly unit: 'years' | 'days' | 'hours' | 'minutes';
  readonly amount: number;
}

const MAX_MINUTES = 10 * 366 * 24 * 60;

function approximateMinutes(lifetime: Lifetime): number {
  switch (lifetime.unit) {
    case 'years':
      return lifetime.amount * 366 * 24 * 60;
    case 'days':
      return lifetime.amount * 24 * 60;
    case 'hours':
      return lifetime.amount * 60;
    case 'minutes':
      return lifetime.amount;
  }
}

/** Refuses non-integer, non-positive and over-ten-year lifetimes. */
export function validateLifetime(lifetime: Lifetime): Lifetime {
  if (!Number.isInteger(lifetime.amount) || lifetime.amount <= 0) {
    throw new PkiError('lifetime_invalid', 'lifetime must be a positive integer amount');
  }
  if (approximateMinutes(lifetime) > MAX_MINUTES) {
    throw new PkiError('lifetime_invalid', 'lifetime must not exceed 10 years');
  }
  return lifetime;
}

export function addLifetime(start: Date, lifetime: Lifetime): Date {
  const end = new Date(start.getTime());
  switch (lifetime.unit) {
    case 'years':
      end.setUTCFullYear(end.getUTCFullYear() + lifetime.amount);
      return end;
    case 'days':
      return new Date(start.getTime() + lifetime.amount * 86_400_000);
    case 'hours':
      return new Date(start.getTime() + lifetime.amount * 3_600_000);
    case 'minutes':
      return new Date(start.getTime() + lifetime.amount * 60_000);
  }
}

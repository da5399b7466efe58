import { PURPOSES, type Purpose } from '../../app/domain/purposes';

export const OVERRIDE_MODES = ['inherit', 'allow', 'deny'] as const;
export type OverrideMode = (typeof OVERRIDE_MODES)[number];

export type PurposeOverrides = Partial<Record<Purpose, Exclude<OverrideMode, 'inherit'>>>;

/**
 * Whether a device may ask for a purpose: a `deny` override always refuses, an `allow`
 * override always permits, otherwise (`inherit`) the purpose must be assigned.
 */
export function purposeAllowed(
  purpose: Purpose,
  assigned: readonly Purpose[],
  overrides: PurposeOverrides,
): boolean {
  const mode = overrides[purpose];
  if (mode === 'deny') return false;
  if (mode === 'allow') return true;
  return assigned.includes(purpose);
}

/** Purposes the device may ask for, in the canonical order. */
export function effectivePurposes(
  assigned: readonly Purpose[],
  overrides: PurposeOverrides,
): Purpose[] {
  return PURPOSES.filter((purpose) => purposeAllowed(purpose, assigned, overrides));
}

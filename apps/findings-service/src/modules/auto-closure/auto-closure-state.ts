import { FINDING_STATUS_GROUPS, type FindingStatus } from '../findings/finding-status';
import type { AbsenceResult } from './auto-closure.entities';

/** Where a finding stands on the way to an automatic closure (docs/findings-service/auto-closure.md). */
export const AUTO_CLOSURE_STATES = [
  /** A switch is off: FEATURE_AUTO_VERIFY_FIXES or the project's auto-verify. */
  'disabled',
  /** Closed by the automatic path (evidence in `closure`). */
  'closed',
  /** Not in an attention state: nothing automatic moves it. */
  'not_applicable',
  /** No covering report has missed it (or its counter was reset by a detection). */
  'not_tracked',
  /** Missed by fewer consecutive checks than required. */
  'counting',
  /** Enough checks; waiting for the scanner's re-verification to say `absent`. */
  'awaiting_confirmation',
  /** Eligible, held back by the hourly cap of the project. */
  'awaiting_cap',
  /** Eligible: closes at the next closure pass. */
  'eligible',
] as const;
export type AutoClosureState = (typeof AUTO_CLOSURE_STATES)[number];

export interface AbsenceFacts {
  streak: number;
  streakStartedAt: Date | null;
  basisSeenAt: Date;
  lastResult: AbsenceResult;
  confirmation: AbsenceResult | null;
  confirmationAt: Date | null;
}

export interface AutoClosureFacts {
  featureEnabled: boolean;
  projectEnabled: boolean;
  status: FindingStatus;
  lastSeenAt: Date;
  absence: AbsenceFacts | null;
  /** The finding's latest automatic closure, if its current `fixed` came from one. */
  closedAutomatically: boolean;
  required: number;
  maxPerHour: number;
  usedThisHour: number;
}

/** Decides the state shown on the finding page; pure, so every branch is unit-tested. */
export function autoClosureState(facts: AutoClosureFacts): AutoClosureState {
  if (facts.status === 'fixed' && facts.closedAutomatically) return 'closed';
  if (!facts.featureEnabled || !facts.projectEnabled) return 'disabled';
  if (!(FINDING_STATUS_GROUPS.attention as readonly string[]).includes(facts.status)) {
    return 'not_applicable';
  }
  const a = facts.absence;
  if (!a || a.streak === 0 || a.basisSeenAt.getTime() !== facts.lastSeenAt.getTime()) {
    return 'not_tracked';
  }
  if (a.streak < facts.required || a.lastResult !== 'absent') return 'counting';
  const confirmed =
    a.confirmation === 'absent' &&
    a.confirmationAt !== null &&
    a.streakStartedAt !== null &&
    a.confirmationAt.getTime() >= a.streakStartedAt.getTime();
  if (!confirmed) return 'awaiting_confirmation';
  return facts.usedThisHour >= facts.maxPerHour ? 'awaiting_cap' : 'eligible';
}

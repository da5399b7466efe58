import type { ClockEffect } from '../../sla-clock/sla-clock.sql';
import { FINDING_STATUS_GROUPS, type FindingStatus } from '../finding-status';
import { FindingsApiError } from '../findings-api.errors';

/**
 * The finding lifecycle (spec "States and transitions"): who may move a finding from which
 * state to which, on what condition, with which required fields, and what the move does to the
 * remediation clock and to open deadline violations. Pure: the writers (PATCH, bulk change,
 * periodic tasks, ingestion) apply the plan set-based in SQL.
 */

/** Who moves the finding. */
export const TRANSITION_TRIGGERS = [
  /** a person or key through PATCH (the UI allows moving to any state by hand) */
  'manual',
  /** a person through the bulk status change (as manual, but never to `waiting`) */
  'bulk',
  /** a periodic task of the worker (expiry of risk acceptance and of waiting) */
  'periodic_task',
  /** a report that sees the finding again */
  'report',
  /** automatic closure after fix verification */
  'automatic_closure',
] as const;
export type TransitionTrigger = (typeof TRANSITION_TRIGGERS)[number];

/** The date-bearing fields a state carries. */
export interface StateFields {
  riskAcceptedUntil: Date | null;
  waitingReason: string | null;
  waitingUntil: Date | null;
}

/** Date column a periodic task compares with the current time. */
export type DueField = 'risk_accepted_until' | 'waiting_until';

/** One row of the spec's table of typical transitions. */
export interface TypicalTransition {
  from: FindingStatus;
  to: FindingStatus;
  by: TransitionTrigger;
  /** For periodic tasks: the transition happens once this date has passed. */
  dueField?: DueField;
  /** The spec's "Also" column. */
  also?: string;
}

/** Longest `waiting` period (spec "Limits"). */
export const MAX_WAITING_DAYS = 30;
const DAY_MS = 86_400_000;

const attentionToFixed: TypicalTransition[] = FINDING_STATUS_GROUPS.attention.map((from) => ({
  from,
  to: 'fixed',
  by: 'automatic_closure',
  also: 'described as fixed',
}));

/** The spec's table of typical transitions, row by row. */
export const TYPICAL_TRANSITIONS: readonly TypicalTransition[] = [
  { from: 'new', to: 'confirmed', by: 'manual' },
  { from: 'new', to: 'false_positive', by: 'manual' },
  { from: 'new', to: 'risk_accepted', by: 'manual', also: 'requires an expiry date' },
  { from: 'confirmed', to: 'in_progress', by: 'manual', also: 'SLA timer starts' },
  { from: 'confirmed', to: 'wont_fix', by: 'manual' },
  {
    from: 'in_progress',
    to: 'waiting',
    by: 'manual',
    also: 'requires reason and date, date at most 30 days ahead',
  },
  { from: 'waiting', to: 'in_progress', by: 'manual', also: 'deadline shifted by the idle time' },
  { from: 'in_progress', to: 'fixed', by: 'manual' },
  {
    from: 'risk_accepted',
    to: 'needs_review',
    by: 'periodic_task',
    dueField: 'risk_accepted_until',
  },
  {
    from: 'waiting',
    to: 'needs_review',
    by: 'periodic_task',
    dueField: 'waiting_until',
    also: 'reason and date cleared',
  },
  { from: 'needs_review', to: 'confirmed', by: 'manual' },
  { from: 'needs_review', to: 'false_positive', by: 'manual' },
  { from: 'fixed', to: 'renewed', by: 'report' },
  { from: 'renewed', to: 'confirmed', by: 'manual' },
  ...attentionToFixed,
];

/** The transitions periodic tasks make (one task per row). */
export const PERIODIC_TRANSITIONS = TYPICAL_TRANSITIONS.filter(
  (t): t is TypicalTransition & { dueField: DueField } =>
    t.by === 'periodic_task' && t.dueField !== undefined,
);

/**
 * What entering each state does to the remediation clock (spec rules 2 and 3): `in_progress`
 * starts it (or resumes it); `waiting`, `risk_accepted` and `needs_review` cannot breach the
 * deadline and pause it; the closing states end it; the other attention states resume a paused
 * clock and leave a running one running.
 */
export const CLOCK_EFFECT_OF: Record<FindingStatus, ClockEffect> = {
  new: 'resume',
  renewed: 'resume',
  confirmed: 'resume',
  in_progress: 'start',
  waiting: 'pause',
  risk_accepted: 'pause',
  needs_review: 'pause',
  wont_fix: 'stop',
  false_positive: 'stop',
  fixed: 'stop',
};

/** States whose entry closes the open deadline violations (spec rule 3). */
export const CLOSING_STATES: readonly FindingStatus[] = ['fixed', 'wont_fix', 'false_positive'];

/** A requested move. `fields` are the state fields given with it (absent: keep or none). */
export interface TransitionRequest {
  from: FindingStatus;
  to: FindingStatus;
  by: TransitionTrigger;
  /** The finding's current state fields (needed when it stays in its state). */
  current: StateFields;
  fields: Partial<StateFields>;
  now: Date;
}

/** An allowed move: the state fields after it and its consequences. */
export interface TransitionPlan {
  from: FindingStatus;
  to: FindingStatus;
  by: TransitionTrigger;
  fields: StateFields;
  clock: ClockEffect;
  closesViolations: boolean;
  /** One of the spec's typical transitions (else a manual move to another state). */
  typical: boolean;
}

const NO_FIELDS: StateFields = { riskAcceptedUntil: null, waitingReason: null, waitingUntil: null };

/** The row of the typical-transition table, if the move is one. */
export function typicalTransition(
  from: FindingStatus,
  to: FindingStatus,
  by: TransitionTrigger,
): TypicalTransition | undefined {
  const trigger = by === 'bulk' ? 'manual' : by;
  return TYPICAL_TRANSITIONS.find((t) => t.from === from && t.to === to && t.by === trigger);
}

/**
 * Checks a move and returns its plan, or throws `FindingsApiError`:
 * - `manual`: any state to any other (or the same state with changed fields); `risk_accepted`
 *   requires `risk_accepted_until` in the future (`risk_accepted_until_required` /
 *   `risk_accepted_until_invalid`); `waiting` requires a reason and a date at most 30 days ahead
 *   (`waiting_fields_required` / `waiting_until_invalid`); fields of another state:
 *   `triage_field_status_mismatch`. Leaving a state clears its fields.
 * - `bulk`: as manual, but `waiting` is refused (`bulk_waiting_refused`, spec rule 1).
 * - `periodic_task`, `report`, `automatic_closure`: only their rows of the table, periodic
 *   ones once their date has passed (else `status_transition_refused`).
 */
export function planTransition(request: TransitionRequest): TransitionPlan {
  const { from, to, by, now } = request;
  const typical = typicalTransition(from, to, by);
  if (by === 'bulk')
    return { ...planBulkTransition(to, request.fields, now), from, typical: !!typical };
  if (by === 'manual') {
    const keep = to === from ? request.current : undefined;
    return plan(request, requiredFields(to, request.fields, now, keep), typical !== undefined);
  }
  if (!typical) throw new FindingsApiError('status_transition_refused', { from, to, by });
  if (typical.dueField) {
    const due =
      typical.dueField === 'risk_accepted_until'
        ? request.current.riskAcceptedUntil
        : request.current.waitingUntil;
    if (!due || due.getTime() > now.getTime()) {
      throw new FindingsApiError('status_transition_refused', { from, to, by });
    }
  }
  return plan(request, NO_FIELDS, true);
}

/** States whose entry by hand needs a justification (issue 25: decisions carry their reason). */
export const JUSTIFIED_STATES: readonly FindingStatus[] = [
  'risk_accepted',
  'false_positive',
  'wont_fix',
];

/** `renewed` is what a report makes of a fixed finding; by hand: `status_not_settable`. */
export function requireSettable(to: FindingStatus | undefined): void {
  if (to === 'renewed') throw new FindingsApiError('status_not_settable');
}

/**
 * The decision's reason, trimmed, when the move needs one (a move into a JUSTIFIED_STATES state,
 * or a new risk_accepted_until): `justification_required` without it. Otherwise the trimmed
 * reason if one was given (kept with the entry), else null.
 */
export function checkedJustification(
  move: { from: FindingStatus | null; to: FindingStatus; newRiskDate: boolean },
  justification: string | undefined,
): string | null {
  const reason = justification?.trim() || null;
  const needed =
    (move.from !== move.to && JUSTIFIED_STATES.includes(move.to)) ||
    (move.to === 'risk_accepted' && move.newRiskDate);
  if (needed && !reason) throw new FindingsApiError('justification_required');
  return reason;
}

/** A bulk change's plan: the same for every finding of the selection, whatever its state. */
export type BulkTransitionPlan = Omit<TransitionPlan, 'from' | 'typical'>;

/**
 * Checks a bulk change to `to` (spec rule 1: never `waiting`, `bulk_waiting_refused`); the
 * target state's required fields as for a manual move into it. Findings already in `to` with
 * the same fields are left as they are; the others each get their own entry and clock effect.
 */
export function planBulkTransition(
  to: FindingStatus,
  fields: Partial<StateFields>,
  now: Date,
): BulkTransitionPlan {
  requireSettable(to);
  if (to === 'waiting') throw new FindingsApiError('bulk_waiting_refused');
  return {
    to,
    by: 'bulk',
    fields: requiredFields(to, fields, now, undefined),
    clock: CLOCK_EFFECT_OF[to],
    closesViolations: CLOSING_STATES.includes(to),
  };
}

function plan(request: TransitionRequest, fields: StateFields, typical: boolean): TransitionPlan {
  return {
    from: request.from,
    to: request.to,
    by: request.by,
    fields,
    clock: CLOCK_EFFECT_OF[request.to],
    closesViolations: request.to !== request.from && CLOSING_STATES.includes(request.to),
    typical,
  };
}

/**
 * The state fields after a manual move into `to`, checked: given fields of another state are
 * refused; `keep` (the current fields when the finding stays in its state) fills what is not
 * given.
 */
function requiredFields(
  to: FindingStatus,
  fields: Partial<StateFields>,
  now: Date,
  keep: StateFields | undefined,
): StateFields {
  if (fields.riskAcceptedUntil !== undefined && to !== 'risk_accepted') {
    throw new FindingsApiError('triage_field_status_mismatch');
  }
  if (
    (fields.waitingReason !== undefined || fields.waitingUntil !== undefined) &&
    to !== 'waiting'
  ) {
    throw new FindingsApiError('triage_field_status_mismatch');
  }
  if (to === 'risk_accepted') {
    const until = fields.riskAcceptedUntil ?? keep?.riskAcceptedUntil ?? null;
    if (!until) throw new FindingsApiError('risk_accepted_until_required');
    if (fields.riskAcceptedUntil && until.getTime() <= now.getTime()) {
      throw new FindingsApiError('risk_accepted_until_invalid');
    }
    return { ...NO_FIELDS, riskAcceptedUntil: until };
  }
  if (to === 'waiting') {
    const reason = fields.waitingReason?.trim() || keep?.waitingReason || null;
    const until = fields.waitingUntil ?? keep?.waitingUntil ?? null;
    if (!reason || !until) throw new FindingsApiError('waiting_fields_required');
    const ahead = until.getTime() - now.getTime();
    if (fields.waitingUntil && (ahead <= 0 || ahead > MAX_WAITING_DAYS * DAY_MS)) {
      throw new FindingsApiError('waiting_until_invalid');
    }
    return { riskAcceptedUntil: null, waitingReason: reason, waitingUntil: until };
  }
  return NO_FIELDS;
}

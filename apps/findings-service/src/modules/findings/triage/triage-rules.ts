import type { FindingActionName } from '../../action-log/finding-action';
import type { FindingStatus } from '../finding-status';
import {
  checkedJustification,
  planTransition,
  requireSettable,
  type TransitionPlan,
} from '../lifecycle/finding-lifecycle';

/** The triage state of a finding that PATCH may change. */
export interface TriageState {
  status: FindingStatus;
  assigneeId: string | null;
  triageComment: string | null;
  riskAcceptedUntil: Date | null;
  waitingReason: string | null;
  waitingUntil: Date | null;
}

/** A PATCH body: absent = unchanged; `null` clears assignee or comment. */
export interface TriagePatch {
  status?: FindingStatus;
  riskAcceptedUntil?: Date;
  waitingReason?: string;
  waitingUntil?: Date;
  assigneeId?: string | null;
  comment?: string | null;
  /** Why: required for a move into risk_accepted, false_positive, wont_fix or a new review date. */
  justification?: string;
}

export interface TriageChange {
  action: FindingActionName;
  from: Record<string, unknown>;
  to: Record<string, unknown>;
}

/**
 * What to write: the new state; the status move when the status or its state fields change
 * (written set-based with its clock effect and its own action-log entry, see
 * status-change.sql.ts); one entry per other kind of change (assignment, comment).
 */
export interface TriagePlan {
  next: TriageState;
  transition: TransitionPlan | null;
  /** The reason written with the status entry (null: none given or needed). */
  justification: string | null;
  changes: TriageChange[];
}

/**
 * Applies the lifecycle to a PATCH (`planTransition` with trigger `manual`: any state may be
 * set by hand, with its required fields) and plans the assignment and comment changes.
 */
export function planTriage(current: TriageState, patch: TriagePatch, now: Date): TriagePlan {
  requireSettable(patch.status);
  const move = planTransition({
    from: current.status,
    to: patch.status ?? current.status,
    by: 'manual',
    current,
    fields: {
      riskAcceptedUntil: patch.riskAcceptedUntil,
      waitingReason: patch.waitingReason,
      waitingUntil: patch.waitingUntil,
    },
    now,
  });
  const next: TriageState = { ...current, status: move.to, ...move.fields };
  if (patch.assigneeId !== undefined) next.assigneeId = patch.assigneeId;
  if (patch.comment !== undefined) next.triageComment = patch.comment?.trim() || null;

  const moved =
    next.status !== current.status ||
    !sameDate(next.riskAcceptedUntil, current.riskAcceptedUntil) ||
    next.waitingReason !== current.waitingReason ||
    !sameDate(next.waitingUntil, current.waitingUntil);
  const justification = moved
    ? checkedJustification(
        {
          from: current.status,
          to: next.status,
          newRiskDate: !sameDate(next.riskAcceptedUntil, current.riskAcceptedUntil),
        },
        patch.justification,
      )
    : null;
  const changes: TriageChange[] = [];
  if (next.assigneeId !== current.assigneeId) {
    changes.push({
      action: 'assigned',
      from: { assignee_id: current.assigneeId },
      to: { assignee_id: next.assigneeId },
    });
  }
  if (next.triageComment !== current.triageComment) {
    changes.push({
      action: 'triage_updated',
      from: { comment: current.triageComment },
      to: { comment: next.triageComment },
    });
  }
  return { next, transition: moved ? move : null, justification, changes };
}

function sameDate(a: Date | null, b: Date | null): boolean {
  return (a?.getTime() ?? null) === (b?.getTime() ?? null);
}

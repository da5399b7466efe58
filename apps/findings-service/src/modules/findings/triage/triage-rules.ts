import type { FindingActionName } from '../../action-log/finding-action';
import type { FindingStatus } from '../finding-status';
import { FindingsApiError } from '../findings-api.errors';

/** Longest `waiting` period (spec "Limits"). */
export const MAX_WAITING_DAYS = 30;
const DAY_MS = 86_400_000;

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
}

export interface TriageChange {
  action: FindingActionName;
  from: Record<string, unknown>;
  to: Record<string, unknown>;
}

/** What to write: the new state (only when something changed) and one entry per kind of change. */
export interface TriagePlan {
  next: TriageState;
  statusChanged: boolean;
  changes: TriageChange[];
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function stateDates(s: TriageState): Record<string, unknown> {
  if (s.status === 'risk_accepted') return { risk_accepted_until: iso(s.riskAcceptedUntil) };
  if (s.status === 'waiting') {
    return { waiting_reason: s.waitingReason, waiting_until: iso(s.waitingUntil) };
  }
  return {};
}

function nextStatusFields(
  current: TriageState,
  patch: TriagePatch,
  now: Date,
): Partial<TriageState> {
  const status = patch.status ?? current.status;
  if (patch.riskAcceptedUntil !== undefined && status !== 'risk_accepted') {
    throw new FindingsApiError('triage_field_status_mismatch');
  }
  if (
    (patch.waitingReason !== undefined || patch.waitingUntil !== undefined) &&
    status !== 'waiting'
  ) {
    throw new FindingsApiError('triage_field_status_mismatch');
  }
  const stays = status === current.status;
  if (status === 'risk_accepted') {
    const until = patch.riskAcceptedUntil ?? (stays ? current.riskAcceptedUntil : null);
    if (!until) throw new FindingsApiError('risk_accepted_until_required');
    if (patch.riskAcceptedUntil && until.getTime() <= now.getTime()) {
      throw new FindingsApiError('risk_accepted_until_invalid');
    }
    return { status, riskAcceptedUntil: until, waitingReason: null, waitingUntil: null };
  }
  if (status === 'waiting') {
    const reason = patch.waitingReason?.trim() || (stays ? current.waitingReason : null);
    const until = patch.waitingUntil ?? (stays ? current.waitingUntil : null);
    if (!reason || !until) throw new FindingsApiError('waiting_fields_required');
    const ahead = until.getTime() - now.getTime();
    if (patch.waitingUntil && (ahead <= 0 || ahead > MAX_WAITING_DAYS * DAY_MS)) {
      throw new FindingsApiError('waiting_until_invalid');
    }
    return { status, riskAcceptedUntil: null, waitingReason: reason, waitingUntil: until };
  }
  return { status, riskAcceptedUntil: null, waitingReason: null, waitingUntil: null };
}

/**
 * Applies the spec's rules to a PATCH: `risk_accepted` needs an expiry in the future; `waiting`
 * needs a reason and a date at most 30 days ahead; leaving those states clears their fields.
 * Any state may be set by hand (the UI allows every transition).
 */
export function planTriage(current: TriageState, patch: TriagePatch, now: Date): TriagePlan {
  const next: TriageState = { ...current, ...nextStatusFields(current, patch, now) };
  if (patch.assigneeId !== undefined) next.assigneeId = patch.assigneeId;
  if (patch.comment !== undefined) next.triageComment = patch.comment?.trim() || null;

  const changes: TriageChange[] = [];
  const statusChanged = next.status !== current.status;
  const from = { status: current.status, ...stateDates(current) };
  const to = { status: next.status, ...stateDates(next) };
  if (statusChanged) {
    changes.push({ action: 'status_changed', from, to });
  } else if (JSON.stringify(from) !== JSON.stringify(to)) {
    changes.push({ action: 'triage_updated', from, to });
  }
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
  return { next, statusChanged, changes };
}

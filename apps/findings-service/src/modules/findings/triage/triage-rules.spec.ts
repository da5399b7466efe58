import { FindingsApiError } from '../findings-api.errors';
import { planTriage, TriageState } from './triage-rules';

const now = new Date('2025-03-01T00:00:00Z');
const inDays = (n: number) => new Date(now.getTime() + n * 86_400_000);
const base: TriageState = {
  status: 'new',
  assigneeId: null,
  triageComment: null,
  riskAcceptedUntil: null,
  waitingReason: null,
  waitingUntil: null,
};
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof FindingsApiError ? e.code : 'other';
  }
  return undefined;
};

describe('planTriage', () => {
  it('plans a status move with its clock effect', () => {
    const plan = planTriage(base, { status: 'in_progress' }, now);
    expect(plan.transition).toMatchObject({ from: 'new', to: 'in_progress', clock: 'start' });
    expect(plan.next.status).toBe('in_progress');
    expect(plan.changes).toEqual([]);
  });

  it('changes nothing when the values are the same', () => {
    const plan = planTriage(base, { status: 'new', comment: '' }, now);
    expect(plan.transition).toBeNull();
    expect(plan.changes).toEqual([]);
  });

  it('risk_accepted: date required, in the future; extending it is a move within the state', () => {
    expect(codeOf(() => planTriage(base, { status: 'risk_accepted' }, now))).toBe(
      'risk_accepted_until_required',
    );
    expect(
      codeOf(() =>
        planTriage(base, { status: 'risk_accepted', riskAcceptedUntil: inDays(-1) }, now),
      ),
    ).toBe('risk_accepted_until_invalid');
    expect(
      codeOf(() =>
        planTriage(base, { status: 'risk_accepted', riskAcceptedUntil: inDays(60) }, now),
      ),
    ).toBe('justification_required');
    const accepted = planTriage(
      base,
      { status: 'risk_accepted', riskAcceptedUntil: inDays(60), justification: 'WAF' },
      now,
    );
    expect(accepted.justification).toBe('WAF');
    expect(codeOf(() => planTriage(accepted.next, { riskAcceptedUntil: inDays(90) }, now))).toBe(
      'justification_required',
    );
    const extended = planTriage(
      accepted.next,
      { riskAcceptedUntil: inDays(90), justification: 'review moved' },
      now,
    );
    expect(extended.transition).toMatchObject({ from: 'risk_accepted', to: 'risk_accepted' });
    expect(extended.next.riskAcceptedUntil).toEqual(inDays(90));
    expect(planTriage(accepted.next, { comment: 'x' }, now).transition).toBeNull();
  });

  it('waiting: reason and date at most 30 days ahead; leaving clears both', () => {
    expect(codeOf(() => planTriage(base, { status: 'waiting', waitingReason: 'x' }, now))).toBe(
      'waiting_fields_required',
    );
    const patch = { status: 'waiting' as const, waitingReason: 'vendor' };
    expect(codeOf(() => planTriage(base, { ...patch, waitingUntil: inDays(30.01) }, now))).toBe(
      'waiting_until_invalid',
    );
    const waiting = planTriage(base, { ...patch, waitingUntil: inDays(30) }, now);
    expect(waiting.next).toMatchObject({ waitingReason: 'vendor', waitingUntil: inDays(30) });
    const back = planTriage(waiting.next, { status: 'in_progress' }, now);
    expect(back.next).toMatchObject({ waitingReason: null, waitingUntil: null });
  });

  it('refuses state fields without their state', () => {
    expect(codeOf(() => planTriage(base, { riskAcceptedUntil: inDays(5) }, now))).toBe(
      'triage_field_status_mismatch',
    );
    expect(codeOf(() => planTriage(base, { status: 'fixed', waitingUntil: inDays(5) }, now))).toBe(
      'triage_field_status_mismatch',
    );
  });

  it('logs assignment and comment separately', () => {
    const plan = planTriage(base, { assigneeId: 'u1', comment: ' why ' }, now);
    expect(plan.transition).toBeNull();
    expect(plan.changes).toEqual([
      { action: 'assigned', from: { assignee_id: null }, to: { assignee_id: 'u1' } },
      { action: 'triage_updated', from: { comment: null }, to: { comment: 'why' } },
    ]);
  });

  it('renewed is never set by hand', () => {
    expect(codeOf(() => planTriage(base, { status: 'renewed' }, now))).toBe('status_not_settable');
    expect(planTriage({ ...base, status: 'renewed' }, { comment: 'x' }, now).transition).toBeNull();
  });
});

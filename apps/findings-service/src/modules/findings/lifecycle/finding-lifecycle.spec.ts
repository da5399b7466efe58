import { FINDING_STATUSES, FINDING_STATUS_GROUPS, type FindingStatus } from '../finding-status';
import { FindingsApiError } from '../findings-api.errors';
import {
  checkedJustification,
  CLOCK_EFFECT_OF,
  PERIODIC_TRANSITIONS,
  planBulkTransition,
  planTransition,
  TYPICAL_TRANSITIONS,
  type StateFields,
  type TransitionRequest,
  type TransitionTrigger,
} from './finding-lifecycle';

const now = new Date('2025-03-01T12:00:00Z');
const inDays = (n: number) => new Date(now.getTime() + n * 86_400_000);
const none: StateFields = { riskAcceptedUntil: null, waitingReason: null, waitingUntil: null };

/** The fields a move into `to` needs to be accepted by hand. */
function requiredFor(to: FindingStatus): Partial<StateFields> {
  if (to === 'risk_accepted') return { riskAcceptedUntil: inDays(90) };
  if (to === 'waiting') return { waitingReason: 'vendor patch', waitingUntil: inDays(10) };
  return {};
}

/** The current fields of a finding sitting in `from` whose dates have passed (periodic rows). */
function expiredFields(from: FindingStatus): StateFields {
  if (from === 'risk_accepted') return { ...none, riskAcceptedUntil: inDays(-1) };
  if (from === 'waiting') {
    return { riskAcceptedUntil: null, waitingReason: 'vendor', waitingUntil: inDays(-1) };
  }
  return none;
}

const request = (r: Partial<TransitionRequest> & Pick<TransitionRequest, 'from' | 'to' | 'by'>) =>
  ({ current: none, fields: {}, now, ...r }) as TransitionRequest;

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof FindingsApiError ? e.code : `not a FindingsApiError: ${String(e)}`;
  }
  return undefined;
};

describe('finding lifecycle - the spec table of typical transitions', () => {
  it('holds the spec rows: 14 named ones and attention -> fixed by automatic closure', () => {
    const rows = TYPICAL_TRANSITIONS.map((t) => `${t.from} -${t.by}-> ${t.to}`);
    expect(rows.slice(0, 14)).toEqual([
      'new -manual-> confirmed',
      'new -manual-> false_positive',
      'new -manual-> risk_accepted',
      'confirmed -manual-> in_progress',
      'confirmed -manual-> wont_fix',
      'in_progress -manual-> waiting',
      'waiting -manual-> in_progress',
      'in_progress -manual-> fixed',
      'risk_accepted -periodic_task-> needs_review',
      'waiting -periodic_task-> needs_review',
      'needs_review -manual-> confirmed',
      'needs_review -manual-> false_positive',
      'fixed -report-> renewed',
      'renewed -manual-> confirmed',
    ]);
    expect(rows.slice(14)).toEqual(
      FINDING_STATUS_GROUPS.attention.map((s) => `${s} -automatic_closure-> fixed`),
    );
  });

  it.each(TYPICAL_TRANSITIONS.map((t) => [`${t.from} -${t.by}-> ${t.to}`, t] as const))(
    'allows %s with its required fields, and says it is typical',
    (_name, t) => {
      const plan = planTransition(
        request({
          from: t.from,
          to: t.to,
          by: t.by,
          current: expiredFields(t.from),
          fields: t.by === 'manual' ? requiredFor(t.to) : {},
        }),
      );
      expect(plan).toMatchObject({ from: t.from, to: t.to, by: t.by, typical: true });
      expect(plan.clock).toBe(CLOCK_EFFECT_OF[t.to]);
      expect(plan.closesViolations).toBe(['fixed', 'wont_fix', 'false_positive'].includes(t.to));
    },
  );

  it('new -> risk_accepted: requires an expiry date, in the future', () => {
    const move = { from: 'new', to: 'risk_accepted', by: 'manual' } as const;
    expect(codeOf(() => planTransition(request(move)))).toBe('risk_accepted_until_required');
    expect(
      codeOf(() => planTransition(request({ ...move, fields: { riskAcceptedUntil: now } }))),
    ).toBe('risk_accepted_until_invalid');
    const plan = planTransition(request({ ...move, fields: { riskAcceptedUntil: inDays(1) } }));
    expect(plan.fields).toEqual({ ...none, riskAcceptedUntil: inDays(1) });
    expect(plan.clock).toBe('pause');
  });

  it('in_progress -> waiting: requires a reason and a date at most 30 days ahead', () => {
    const move = { from: 'in_progress', to: 'waiting', by: 'manual' } as const;
    const refused = (fields: Partial<StateFields>) =>
      codeOf(() => planTransition(request({ ...move, fields })));
    expect(refused({ waitingUntil: inDays(5) })).toBe('waiting_fields_required');
    expect(refused({ waitingReason: 'vendor' })).toBe('waiting_fields_required');
    expect(refused({ waitingReason: '   ', waitingUntil: inDays(5) })).toBe(
      'waiting_fields_required',
    );
    expect(refused({ waitingReason: 'vendor', waitingUntil: inDays(30.0001) })).toBe(
      'waiting_until_invalid',
    );
    expect(refused({ waitingReason: 'vendor', waitingUntil: now })).toBe('waiting_until_invalid');
    expect(refused({ waitingReason: 'vendor', waitingUntil: inDays(-1) })).toBe(
      'waiting_until_invalid',
    );
    const plan = planTransition(
      request({ ...move, fields: { waitingReason: ' vendor ', waitingUntil: inDays(30) } }),
    );
    expect(plan.fields).toEqual({
      riskAcceptedUntil: null,
      waitingReason: 'vendor',
      waitingUntil: inDays(30),
    });
    expect(plan.clock).toBe('pause');
  });

  it('confirmed -> in_progress starts the clock; waiting -> in_progress resumes it (start)', () => {
    expect(
      planTransition(request({ from: 'confirmed', to: 'in_progress', by: 'manual' })).clock,
    ).toBe('start');
    expect(
      planTransition(request({ from: 'waiting', to: 'in_progress', by: 'manual' })).clock,
    ).toBe('start');
  });

  it('periodic rows: only once their date has passed; they clear the state fields', () => {
    for (const t of PERIODIC_TRANSITIONS) {
      const notYet = {
        ...expiredFields(t.from),
        [t.dueField === 'waiting_until' ? 'waitingUntil' : 'riskAcceptedUntil']: inDays(1),
      };
      expect(
        codeOf(() =>
          planTransition(request({ from: t.from, to: t.to, by: t.by, current: notYet })),
        ),
      ).toBe('status_transition_refused');
      const noDate = { ...none, waitingReason: t.from === 'waiting' ? 'x' : null };
      expect(
        codeOf(() =>
          planTransition(request({ from: t.from, to: t.to, by: t.by, current: noDate })),
        ),
      ).toBe('status_transition_refused');
      const due = planTransition(
        request({ from: t.from, to: t.to, by: t.by, current: expiredFields(t.from) }),
      );
      expect(due.fields).toEqual(none);
      expect(due.clock).toBe('pause');
    }
    expect(PERIODIC_TRANSITIONS.map((t) => [t.from, t.dueField])).toEqual([
      ['risk_accepted', 'risk_accepted_until'],
      ['waiting', 'waiting_until'],
    ]);
  });

  it('fixed -> renewed by a report: the clock stays stopped (resume of a stopped clock)', () => {
    const plan = planTransition(request({ from: 'fixed', to: 'renewed', by: 'report' }));
    expect(plan).toMatchObject({ clock: 'resume', closesViolations: false });
  });
});

describe('finding lifecycle - refusals', () => {
  const automatic: TransitionTrigger[] = ['periodic_task', 'report', 'automatic_closure'];
  const pairs = FINDING_STATUSES.flatMap((from) =>
    FINDING_STATUSES.map((to) => [from, to] as const),
  );

  it.each(automatic)('%s: every move that is not its row of the table is refused', (by) => {
    const allowed = TYPICAL_TRANSITIONS.filter((t) => t.by === by).map((t) => `${t.from}>${t.to}`);
    const refused = pairs.filter(([from, to]) => !allowed.includes(`${from}>${to}`));
    expect(refused.length).toBe(pairs.length - allowed.length);
    for (const [from, to] of refused) {
      expect(
        codeOf(() => planTransition(request({ from, to, by, current: expiredFields(from) }))),
      ).toBe('status_transition_refused');
    }
  });

  it('manual: every state to every other state is allowed with its required fields', () => {
    for (const [from, to] of pairs.filter(([a, b]) => a !== b)) {
      const plan = planTransition(request({ from, to, by: 'manual', fields: requiredFor(to) }));
      expect(plan.to).toBe(to);
      expect(plan.typical).toBe(
        TYPICAL_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by === 'manual'),
      );
    }
  });

  it('manual: fields of another state are refused', () => {
    for (const to of FINDING_STATUSES.filter((s) => s !== 'risk_accepted')) {
      expect(
        codeOf(() =>
          planTransition(
            request({ from: 'new', to, by: 'manual', fields: { riskAcceptedUntil: inDays(3) } }),
          ),
        ),
      ).toBe('triage_field_status_mismatch');
    }
    for (const to of FINDING_STATUSES.filter((s) => s !== 'waiting')) {
      for (const fields of [{ waitingReason: 'x' }, { waitingUntil: inDays(3) }]) {
        expect(
          codeOf(() => planTransition(request({ from: 'new', to, by: 'manual', fields }))),
        ).toBe('triage_field_status_mismatch');
      }
    }
  });

  it('manual: staying in risk_accepted/waiting keeps the current fields, a new date is checked', () => {
    const accepted = { ...none, riskAcceptedUntil: inDays(10) };
    const stay = planTransition(
      request({ from: 'risk_accepted', to: 'risk_accepted', by: 'manual', current: accepted }),
    );
    expect(stay.fields).toEqual(accepted);
    expect(stay.closesViolations).toBe(false);
    expect(
      codeOf(() =>
        planTransition(
          request({
            from: 'risk_accepted',
            to: 'risk_accepted',
            by: 'manual',
            current: accepted,
            fields: { riskAcceptedUntil: inDays(-2) },
          }),
        ),
      ),
    ).toBe('risk_accepted_until_invalid');
    const waiting = { riskAcceptedUntil: null, waitingReason: 'vendor', waitingUntil: inDays(4) };
    expect(
      planTransition(request({ from: 'waiting', to: 'waiting', by: 'manual', current: waiting }))
        .fields,
    ).toEqual(waiting);
  });

  it('bulk: waiting is refused whatever the fields; other states as manual', () => {
    for (const fields of [{}, requiredFor('waiting')]) {
      expect(codeOf(() => planBulkTransition('waiting', fields, now))).toBe('bulk_waiting_refused');
      expect(
        codeOf(() =>
          planTransition(request({ from: 'in_progress', to: 'waiting', by: 'bulk', fields })),
        ),
      ).toBe('bulk_waiting_refused');
    }
    expect(codeOf(() => planBulkTransition('risk_accepted', {}, now))).toBe(
      'risk_accepted_until_required',
    );
    expect(codeOf(() => planBulkTransition('fixed', { riskAcceptedUntil: inDays(1) }, now))).toBe(
      'triage_field_status_mismatch',
    );
    expect(codeOf(() => planBulkTransition('renewed', {}, now))).toBe('status_not_settable');
    for (const to of FINDING_STATUSES.filter((s) => s !== 'waiting' && s !== 'renewed')) {
      const plan = planBulkTransition(to, requiredFor(to), now);
      expect(plan).toMatchObject({ to, by: 'bulk', clock: CLOCK_EFFECT_OF[to] });
      expect(plan.closesViolations).toBe(['fixed', 'wont_fix', 'false_positive'].includes(to));
    }
  });
});

describe('finding lifecycle - the remediation clock per target state', () => {
  it('starts in in_progress, pauses in waiting/risk_accepted/needs_review, stops in closing states', () => {
    expect(CLOCK_EFFECT_OF).toEqual({
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
    });
  });
});

describe('finding lifecycle - decisions carry their reason', () => {
  it.each(['risk_accepted', 'false_positive', 'wont_fix'] as const)(
    'a move into %s needs a non-blank justification (trimmed)',
    (to) => {
      for (const justification of [undefined, '', '  ']) {
        expect(
          codeOf(() =>
            checkedJustification({ from: 'new', to, newRiskDate: false }, justification),
          ),
        ).toBe('justification_required');
      }
      expect(checkedJustification({ from: 'new', to, newRiskDate: false }, ' why ')).toBe('why');
      // Bulk: no single "from", always a move into the state.
      expect(codeOf(() => checkedJustification({ from: null, to, newRiskDate: false }, ''))).toBe(
        'justification_required',
      );
    },
  );

  it('a new review date needs one; other moves take one when given', () => {
    const stay = { from: 'risk_accepted', to: 'risk_accepted', newRiskDate: true } as const;
    expect(codeOf(() => checkedJustification(stay, undefined))).toBe('justification_required');
    expect(checkedJustification({ ...stay, newRiskDate: false }, undefined)).toBeNull();
    expect(
      checkedJustification({ from: 'new', to: 'confirmed', newRiskDate: false }, undefined),
    ).toBeNull();
    expect(checkedJustification({ from: 'new', to: 'confirmed', newRiskDate: false }, 'x')).toBe(
      'x',
    );
  });
});

import {
  closureEvidence,
  productCheckSentence,
  stateSentence,
  type AutoClosureView,
} from './auto-closure-text';

const base: AutoClosureView = {
  state: 'not_tracked',
  switches: { feature: true, project: true },
  required_checks: 3,
  attempts_per_check: 3,
  consecutive_absent: 0,
  streak_started_at: null,
  reports: [],
  last_check: null,
  confirmation: null,
  reverification_requested_at: null,
  closure: null,
  max_per_hour: 200,
  closed_last_hour: 0,
  last_product_check: null,
};

describe('stateSentence', () => {
  it('names the switch that is off', () => {
    const off = (feature: boolean, project: boolean) =>
      stateSentence({ ...base, state: 'disabled', switches: { feature, project } }).key;
    expect(off(false, true)).toBe('autoClosure.disabledFeature');
    expect(off(true, false)).toBe('autoClosure.disabledProject');
    expect(off(false, false)).toBe('autoClosure.disabledBoth');
  });

  it('counts the consecutive scans that missed the finding against those required', () => {
    expect(stateSentence({ ...base, state: 'counting', consecutive_absent: 2 })).toEqual({
      key: 'autoClosure.counting',
      params: { n: 2, required: 3 },
    });
  });

  it('says when the scanner was asked, or that it was not', () => {
    const waiting = { ...base, state: 'awaiting_confirmation' as const, consecutive_absent: 3 };
    expect(
      stateSentence({ ...waiting, reverification_requested_at: '2026-11-28T10:00:00.000Z' }),
    ).toEqual({
      key: 'autoClosure.awaitingConfirmation',
      params: { n: 3, required: 3, at: '2026-11-28T10:00:00.000Z' },
    });
    expect(stateSentence(waiting).key).toBe('autoClosure.awaitingConfirmationNotAsked');
  });

  it('gives the hourly limit and what it already closed', () => {
    expect(
      stateSentence({ ...base, state: 'awaiting_cap', max_per_hour: 200, closed_last_hour: 200 }),
    ).toEqual({ key: 'autoClosure.awaitingCap', params: { max: 200, used: 200 } });
  });

  it('dates a closure', () => {
    expect(
      stateSentence({
        ...base,
        state: 'closed',
        closure: { closed_at: '2026-11-28T11:00:00.000Z', evidence: {} },
      }),
    ).toEqual({ key: 'autoClosure.closed', params: { at: '2026-11-28T11:00:00.000Z' } });
  });
});

describe('productCheckSentence', () => {
  type CheckState = NonNullable<AutoClosureView['last_product_check']>['state'];
  const check = (state: CheckState, reason: string | null) => ({
    ...base,
    last_product_check: { report_id: 'r1', state, reason, finished_at: null },
  });

  it('names the switch that was off when the last check was skipped', () => {
    expect(productCheckSentence(check('skipped', 'project_off'))).toEqual({
      key: 'autoClosure.skippedProjectOff',
      params: { report: 'r1', reason: 'project_off' },
    });
    expect(productCheckSentence(check('skipped', 'feature_off'))?.key).toBe(
      'autoClosure.skippedFeatureOff',
    );
    expect(productCheckSentence(check('skipped', 'something_new'))?.key).toBe(
      'autoClosure.skipped',
    );
  });

  it('mentions a running check and is silent about a completed one', () => {
    expect(productCheckSentence(check('running', null))?.key).toBe(
      'autoClosure.productCheckRunning',
    );
    expect(productCheckSentence(check('completed', null))).toBeUndefined();
    expect(productCheckSentence(base)).toBeUndefined();
  });
});

describe('closureEvidence', () => {
  it('reads the evidence of an automatic closure', () => {
    expect(
      closureEvidence({
        mechanism: 'automatic_closure',
        checks: 3,
        required_checks: 3,
        reports: ['r1', 'r2', 'r3'],
        confirmation: {
          verification_id: 'v1',
          result: 'absent',
          at: '2026-11-28T11:00:00.000Z',
          key_id: 'sck_0123456789abcdef',
          origin: 'automatic',
        },
      }),
    ).toEqual({
      checks: 3,
      requiredChecks: 3,
      reports: ['r1', 'r2', 'r3'],
      confirmation: {
        result: 'absent',
        at: '2026-11-28T11:00:00.000Z',
        keyId: 'sck_0123456789abcdef',
        origin: 'automatic',
      },
    });
  });

  it('leaves out what is missing or of the wrong type instead of failing', () => {
    expect(closureEvidence({ checks: '3', reports: ['r1', 7], confirmation: null })).toEqual({
      checks: null,
      requiredChecks: null,
      reports: ['r1'],
      confirmation: null,
    });
    expect(closureEvidence('evidence')).toBeUndefined();
    expect(closureEvidence(null)).toBeUndefined();
    expect(closureEvidence([1])).toBeUndefined();
  });
});

import { autoClosureState, type AutoClosureFacts } from './auto-closure-state';

const seen = new Date('2026-11-01T10:00:00Z');
const start = new Date('2026-11-02T10:00:00Z');
const base: AutoClosureFacts = {
  featureEnabled: true,
  projectEnabled: true,
  status: 'new',
  lastSeenAt: seen,
  absence: {
    streak: 3,
    streakStartedAt: start,
    basisSeenAt: seen,
    lastResult: 'absent',
    confirmation: 'absent',
    confirmationAt: new Date('2026-11-03T10:00:00Z'),
  },
  closedAutomatically: false,
  required: 3,
  maxPerHour: 10,
  usedThisHour: 0,
};
const withAbsence = (a: Partial<NonNullable<AutoClosureFacts['absence']>>): AutoClosureFacts => ({
  ...base,
  absence: { ...(base.absence as NonNullable<AutoClosureFacts['absence']>), ...a },
});

describe('autoClosureState', () => {
  it('is eligible with enough absent checks and a later absent confirmation', () => {
    expect(autoClosureState(base)).toBe('eligible');
  });
  it('names the switch state before anything else (but a past automatic closure stays shown)', () => {
    expect(autoClosureState({ ...base, featureEnabled: false })).toBe('disabled');
    expect(autoClosureState({ ...base, projectEnabled: false })).toBe('disabled');
    expect(
      autoClosureState({
        ...base,
        featureEnabled: false,
        status: 'fixed',
        closedAutomatically: true,
      }),
    ).toBe('closed');
  });
  it('leaves findings outside the attention states alone', () => {
    expect(autoClosureState({ ...base, status: 'risk_accepted' })).toBe('not_applicable');
    expect(autoClosureState({ ...base, status: 'fixed' })).toBe('not_applicable');
  });
  it('is not tracked without a streak, or when the finding was seen after it was counted', () => {
    expect(autoClosureState({ ...base, absence: null })).toBe('not_tracked');
    expect(autoClosureState(withAbsence({ streak: 0 }))).toBe('not_tracked');
    expect(autoClosureState({ ...base, lastSeenAt: new Date('2026-11-05T00:00:00Z') })).toBe(
      'not_tracked',
    );
  });
  it('counts until the required checks', () => {
    expect(autoClosureState(withAbsence({ streak: 2 }))).toBe('counting');
  });
  it('waits for an absent confirmation given after the streak began', () => {
    expect(autoClosureState(withAbsence({ confirmation: null, confirmationAt: null }))).toBe(
      'awaiting_confirmation',
    );
    expect(
      autoClosureState(withAbsence({ confirmationAt: new Date('2026-11-01T00:00:00Z') })),
    ).toBe('awaiting_confirmation');
    expect(autoClosureState(withAbsence({ confirmation: 'undetermined' }))).toBe(
      'awaiting_confirmation',
    );
  });
  it('holds an eligible finding while the hourly cap is used up', () => {
    expect(autoClosureState({ ...base, usedThisHour: 10 })).toBe('awaiting_cap');
  });
});

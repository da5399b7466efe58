import { syncComment, trackerMove, wantedTrackerStatus } from './ticket-sync-plan';

describe('wantedTrackerStatus', () => {
  it('maps one finding: fixed resolves, false positive closes, attention opens, in progress starts', () => {
    expect(wantedTrackerStatus(['fixed'])).toBe('resolved');
    expect(wantedTrackerStatus(['false_positive'])).toBe('closed');
    expect(wantedTrackerStatus(['risk_accepted'])).toBe('closed');
    expect(wantedTrackerStatus(['wont_fix'])).toBe('closed');
    for (const s of ['new', 'renewed', 'needs_review', 'confirmed', 'waiting'] as const) {
      expect(wantedTrackerStatus([s])).toBe('open');
    }
    expect(wantedTrackerStatus(['in_progress'])).toBe('in_progress');
  });

  it('a group resolves only when every finding is closed, and reopens when any comes back', () => {
    expect(wantedTrackerStatus(['fixed', 'confirmed'])).toBe('open');
    expect(wantedTrackerStatus(['fixed', 'in_progress', 'new'])).toBe('in_progress');
    expect(wantedTrackerStatus(['fixed', 'false_positive'])).toBe('resolved');
    expect(wantedTrackerStatus(['false_positive', 'wont_fix'])).toBe('closed');
    expect(wantedTrackerStatus([])).toBeNull();
  });
});

describe('trackerMove', () => {
  it('does not move within a stage (resolved and closed are one)', () => {
    expect(trackerMove('open', 'open')).toBeNull();
    expect(trackerMove('resolved', 'closed')).toBeNull();
    expect(trackerMove('closed', 'resolved')).toBeNull();
    expect(trackerMove('open', null)).toBeNull();
  });

  it('never undoes a started task because a finding was triaged', () => {
    expect(trackerMove('in_progress', 'open')).toBeNull();
  });

  it('closes, reopens and starts', () => {
    expect(trackerMove('open', 'resolved')).toBe('resolved');
    expect(trackerMove('in_progress', 'closed')).toBe('closed');
    expect(trackerMove('resolved', 'open')).toBe('open');
    expect(trackerMove('closed', 'in_progress')).toBe('in_progress');
    expect(trackerMove('open', 'in_progress')).toBe('in_progress');
  });
});

describe('syncComment', () => {
  it('names the findings’ states and the move', () => {
    expect(syncComment(['fixed'], 'resolved')).toBe(
      'The finding is now fixed: the findings service moved this task to resolved.',
    );
    expect(syncComment(['fixed', 'false_positive', 'fixed'], 'resolved')).toBe(
      'Its 3 findings are now 1 false_positive, 2 fixed: the findings service moved this task to resolved.',
    );
    expect(syncComment(['in_progress'], 'in_progress')).toContain('to in progress');
  });
});

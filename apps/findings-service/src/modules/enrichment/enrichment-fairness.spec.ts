import { UnrecoverableError } from 'bullmq';
import { enrichmentJobFailure, isDeterministicFailure } from './enrichment-fairness';

describe('enrichment fairness: which failures are retried', () => {
  it.each([
    [
      'every finding on the deadline',
      { enriched: 0, failed: 3, failedBy: { deadline_exceeded: 3 } },
    ],
    [
      'traps and deadlines',
      { enriched: 0, failed: 2, failedBy: { trap: 1, deadline_exceeded: 1 } },
    ],
    [
      'deadlines, then the rest of the batch not attempted',
      { enriched: 0, failed: 5, failedBy: { deadline_exceeded: 3, not_attempted: 2 } },
    ],
    [
      'a trap, counted by its first error only',
      { enriched: 0, failed: 1, firstError: { code: 'trap', message: 'unreachable' } },
    ],
  ])('%s: deterministic, the job fails without another attempt', (_what, outcome) => {
    expect(isDeterministicFailure(outcome)).toBe(true);
    const error = enrichmentJobFailure(outcome, 'enrichment_failed: deadline_exceeded: x');
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toBe('enrichment_failed: deadline_exceeded: x');
  });

  it.each([
    ['the runner was unavailable', { enriched: 0, failed: 2, failedBy: { unavailable: 2 } }],
    [
      'a deadline beside an outage',
      { enriched: 0, failed: 2, failedBy: { deadline_exceeded: 1, unavailable: 1 } },
    ],
    ['some findings enriched', { enriched: 1, failed: 2, failedBy: { deadline_exceeded: 2 } }],
    ['nothing failed', { enriched: 0, failed: 0 }],
    ['only not attempted', { enriched: 0, failed: 1, failedBy: { not_attempted: 1 } }],
  ])('%s: retried as before', (_what, outcome) => {
    expect(isDeterministicFailure(outcome)).toBe(false);
    expect(enrichmentJobFailure(outcome, 'm')).not.toBeInstanceOf(UnrecoverableError);
  });
});

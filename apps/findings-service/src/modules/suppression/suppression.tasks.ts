import type { PeriodicTask } from '@platform/database';
import { SUPPRESSION_RUN_STALE_SECONDS } from './suppression-run.job';
import type { SuppressionRunsRepository } from './suppression-runs.repository';

/** How often the leading worker looks for runs that died (docs/findings-service/suppression.md). */
export const SUPPRESSION_SWEEP_EVERY_MS = 60_000;

/**
 * `suppression-run-sweep`: a run with no chunk for SUPPRESSION_RUN_STALE_SECONDS is marked
 * `failed` (rule log `run_failed`, cause `stale`), so the screen stops showing it running.
 */
export function suppressionTasks(
  runs: SuppressionRunsRepository,
  options: { everyMs?: number; staleSeconds?: number } = {},
): PeriodicTask[] {
  return [
    {
      name: 'suppression-run-sweep',
      everyMs: options.everyMs ?? SUPPRESSION_SWEEP_EVERY_MS,
      run: async () => {
        await runs.failStaleRuns(
          options.staleSeconds ?? SUPPRESSION_RUN_STALE_SECONDS,
          'suppression-run-sweep',
        );
      },
    },
  ];
}

import type { PeriodicTask } from '@platform/database';
import type { LogSnapshotsRetention } from '../modules/log-snapshots/log-snapshots-retention';

/** How often the worker purges agent log snapshots older than 7 days. */
export const LOG_SNAPSHOTS_PURGE_MS = 3_600_000;

/** Deletes snapshot rows and files older than 7 days (specification, Limits). */
export function logSnapshotsPurgeTask(
  snapshots: LogSnapshotsRetention,
  everyMs = LOG_SNAPSHOTS_PURGE_MS,
  clock: () => Date = () => new Date(),
): PeriodicTask {
  return {
    name: 'agent log snapshots purge',
    everyMs,
    run: async () => {
      await snapshots.purge(clock());
    },
  };
}

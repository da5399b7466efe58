import type { PeriodicTask } from '@platform/database';
import type { ReportCleanupService } from './report-cleanup.service';

/** The cleanup's period is fixed by the spec (hourly); CLEANUP_SCHEDULE only draws a warning. */
export const CLEANUP_EVERY_MS = 3_600_000;

/** `report-cleanup`: hourly, on the leading worker only. */
export function cleanupTasks(cleanup: ReportCleanupService): PeriodicTask[] {
  return [
    {
      name: 'report-cleanup',
      everyMs: CLEANUP_EVERY_MS,
      run: async () => {
        await cleanup.run();
      },
    },
  ];
}

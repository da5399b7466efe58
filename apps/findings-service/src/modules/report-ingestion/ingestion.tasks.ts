import type { PeriodicTask } from '@platform/database';
import { STRANDED_REPORT_CHECK_EVERY_MS, type StrandedReports } from './stranded-reports';

/** `report-requeue`: on the leading worker only. */
export function ingestionTasks(stranded: StrandedReports): PeriodicTask[] {
  return [
    {
      name: 'report-requeue',
      everyMs: STRANDED_REPORT_CHECK_EVERY_MS,
      run: async () => {
        await stranded.requeue();
      },
    },
  ];
}

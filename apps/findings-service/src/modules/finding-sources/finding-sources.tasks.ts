import type { PeriodicTask } from '@platform/database';
import type { FindingSourcesService } from './finding-sources.service';

/** How often the leading worker looks for finding sources due for a poll. */
export const FINDING_SOURCE_CHECK_EVERY_MS = 60_000;

/** `finding-source-polls`: polls each enabled source once per FINDING_SOURCE_POLL_INTERVAL_MINUTES. */
export function findingSourceTasks(
  sources: FindingSourcesService,
  everyMs = FINDING_SOURCE_CHECK_EVERY_MS,
): PeriodicTask[] {
  return [
    {
      name: 'finding-source-polls',
      everyMs,
      run: async () => {
        await sources.pollDue();
      },
    },
  ];
}

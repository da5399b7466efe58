import type { PeriodicTask } from '@platform/database';
import type { AutoClosureService } from './auto-closure.service';

/** How often the leading worker closes findings the hourly cap held back. */
export const AUTO_CLOSURE_PASS_EVERY_MS = 300_000;

/** `auto-closure-pass`: eligible findings of every project, under each project's hourly cap. */
export function autoClosureTasks(
  autoClosure: AutoClosureService,
  everyMs = AUTO_CLOSURE_PASS_EVERY_MS,
): PeriodicTask[] {
  return [
    {
      name: 'auto-closure-pass',
      everyMs,
      run: async () => {
        await autoClosure.closeAllEligible();
      },
    },
  ];
}

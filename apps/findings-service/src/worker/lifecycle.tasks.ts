import type { PeriodicTask } from '@platform/database';
import type { StateExpiryService } from '../modules/findings/lifecycle/state-expiry.service';
import { EXPIRY_TRANSITIONS } from '../modules/findings/lifecycle/state-expiry.service';
import type { SlaCheckService } from '../modules/sla/sla-check.service';

/** Periods of the lifecycle's periodic tasks (tests pass shorter ones). */
export interface LifecycleSchedule {
  /** The deadline check: hourly (spec "An hourly check"). */
  slaCheckEveryMs: number;
  /** The expiry of risk acceptance and of waiting: every 5 minutes. */
  stateExpiryEveryMs: number;
}

export const LIFECYCLE_SCHEDULE: LifecycleSchedule = {
  slaCheckEveryMs: 3_600_000,
  stateExpiryEveryMs: 300_000,
};

/**
 * `risk-acceptance-expiry` and `waiting-expiry` (risk_accepted / waiting past their date →
 * needs_review) and `sla-check` (approaching and breached deadlines, notification jobs).
 */
export function lifecycleTasks(
  expiry: StateExpiryService,
  sla: SlaCheckService,
  schedule: LifecycleSchedule,
): PeriodicTask[] {
  return [
    ...EXPIRY_TRANSITIONS.map((transition) => ({
      name: transition.task,
      everyMs: schedule.stateExpiryEveryMs,
      run: async () => {
        await expiry.expire(transition);
      },
    })),
    {
      name: 'sla-check',
      everyMs: schedule.slaCheckEveryMs,
      run: async () => {
        await sla.run();
      },
    },
  ];
}

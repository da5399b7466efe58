import { isUUID } from 'class-validator';
import { defineJobContract } from '@platform/queue';

/** The closure-check queue: one job per attempt of the check of one report. */
export const AUTO_CLOSURE_QUEUE = 'auto-closure';

/** How long finished check jobs stay in the queue (BullMQ removeOnComplete/Fail ages). */
export const AUTO_CLOSURE_JOB_RETENTION_SECONDS = { completed: 24 * 3600, failed: 7 * 24 * 3600 };

export interface ClosureCheckJob {
  reportId: string;
  /** 1-based attempt of the check (AUTO_CLOSE_ATTEMPTS in all). */
  attempt: number;
}

export const CLOSURE_CHECK = defineJobContract<ClosureCheckJob>('closure-check', (data) => {
  if (typeof data !== 'object' || data === null) throw new Error('expected an object');
  const { reportId, attempt } = data as Record<string, unknown>;
  if (typeof reportId !== 'string' || !isUUID(reportId, 'loose')) {
    throw new Error('reportId must be a UUID');
  }
  if (typeof attempt !== 'number' || !Number.isInteger(attempt) || attempt < 1 || attempt > 100) {
    throw new Error('attempt must be an integer from 1 to 100');
  }
  return { reportId, attempt };
});

/** One job per report and attempt: a duplicate add (a retried ingestion job) is a no-op. */
export function closureCheckJobId(reportId: string, attempt: number): string {
  return `check-${reportId}-${attempt}`;
}

import type { Job, JobState } from 'bullmq';

/** Job states the API shows (BullMQ's prioritized and waiting-children count as waiting). */
export const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;
export type JobStateName = (typeof JOB_STATES)[number];

/** A queue job as the jobs API returns it. */
export interface JobView {
  id: string;
  queue: string;
  kind: string;
  state: JobStateName;
  reportId: string | null;
  projectId: string | null;
  productId: string | null;
  attemptsMade: number;
  attempts: number;
  failedReason: string | null;
  /** The job's reported progress when it is a set of counters (ticket backfills), else null. */
  progress: Record<string, number> | null;
  /** The `state` a finished job returned (a ticket backfill: completed, failed or cancelled). */
  outcome: string | null;
  createdAt: Date;
  processedAt: Date | null;
  finishedAt: Date | null;
}

export function stateName(state: JobState | 'unknown'): JobStateName | undefined {
  switch (state) {
    case 'waiting':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    case 'active':
    case 'delayed':
    case 'completed':
    case 'failed':
      return state;
    case 'unknown':
      return undefined;
  }
}

function text(data: unknown, key: string): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

function counters(progress: unknown): Record<string, number> | null {
  if (typeof progress !== 'object' || progress === null || Array.isArray(progress)) return null;
  const entries = Object.entries(progress).filter(([, v]) => typeof v === 'number');
  return entries.length > 0 ? (Object.fromEntries(entries) as Record<string, number>) : null;
}

export function jobView(job: Job, state: JobStateName): JobView {
  return {
    id: job.id ?? '',
    queue: job.queueName,
    kind: job.name,
    state,
    reportId: text(job.data, 'reportId'),
    projectId: text(job.data, 'projectId'),
    productId: text(job.data, 'productId'),
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    failedReason: job.failedReason || null,
    progress: counters(job.progress),
    outcome: text(job.returnvalue, 'state'),
    createdAt: new Date(job.timestamp),
    processedAt: job.processedOn ? new Date(job.processedOn) : null,
    finishedAt: job.finishedOn ? new Date(job.finishedOn) : null,
  };
}

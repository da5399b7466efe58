import { defineJobContract } from '@platform/queue';

/** The history backfill queue (design §3.6): one job per backfill, job id = ticket_backfills.id. */
export const TICKET_BACKFILL_QUEUE = 'ticket-backfill';

/** Findings walked per page (the progress row and the job's progress follow each page). */
export const TICKET_BACKFILL_PAGE = 100;

/** `unauthorized`/`misconfigured` answers in a row that stop a backfill as failed. */
export const TICKET_BACKFILL_FATAL_STREAK = 3;

export const TICKET_BACKFILL_MODES = ['link_only', 'create'] as const;
export type TicketBackfillMode = (typeof TICKET_BACKFILL_MODES)[number];

/** The job carries the selection (the row keeps progress and the cursor to resume from). */
export interface TicketBackfillJob {
  backfillId: string;
  projectId: string;
  mode: TicketBackfillMode;
  statuses: string[];
  severities: string[];
}

const strings = (v: unknown, name: string): string[] => {
  if (!Array.isArray(v) || v.length === 0 || v.some((s) => typeof s !== 'string')) {
    throw new Error(`${name} must be a non-empty list of strings`);
  }
  return v as string[];
};

export const TICKET_BACKFILL = defineJobContract<TicketBackfillJob>('ticket-backfill', (data) => {
  if (typeof data !== 'object' || data === null) throw new Error('expected an object');
  const { backfillId, projectId, mode, statuses, severities } = data as Record<string, unknown>;
  if (typeof backfillId !== 'string' || !/^tbf-[0-9a-f-]{36}$/.test(backfillId)) {
    throw new Error('backfillId must be tbf-<uuid>');
  }
  if (typeof projectId !== 'string' || !/^[0-9a-f-]{36}$/i.test(projectId)) {
    throw new Error('projectId must be a UUID');
  }
  if (!(TICKET_BACKFILL_MODES as readonly unknown[]).includes(mode)) {
    throw new Error('mode must be link_only or create');
  }
  return {
    backfillId,
    projectId,
    mode: mode as TicketBackfillMode,
    statuses: strings(statuses, 'statuses'),
    severities: strings(severities, 'severities'),
  };
});

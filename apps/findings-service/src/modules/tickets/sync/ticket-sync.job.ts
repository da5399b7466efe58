import { defineJobContract } from '@platform/queue';

/** Service-to-tracker transitions (docs/findings-service/tickets.md, "Service to tracker"). */
export const TICKET_SYNC_QUEUE = 'ticket-sync';

/** Attempts of one sync job; the waits between them are 30 s × 2ⁿ (30 s, 1, 2 and 4 min). */
export const TICKET_SYNC_ATTEMPTS = 5;
export const TICKET_SYNC_BACKOFF_MS = 30_000;

/** Tickets the leader's feed tick hands to the queue at most per pass. */
export const TICKET_SYNC_ENQUEUE_BATCH = 500;

/**
 * One job per ticket at a time (job id `tsync-<ticket id>`): a request made while the job runs
 * stays on the row and gets the next job, so two workers never move one task at once. The job
 * reads what to do from the row and the findings, not from its data.
 */
export interface TicketSyncJob {
  ticketId: string;
}

export const ticketSyncJobId = (ticketId: string): string => `tsync-${ticketId}`;

export const TICKET_SYNC = defineJobContract<TicketSyncJob>('ticket-sync', (data) => {
  const ticketId = (data as { ticketId?: unknown } | null)?.ticketId;
  if (typeof ticketId !== 'string' || !/^[0-9a-f-]{36}$/i.test(ticketId)) {
    throw new Error('ticketId must be a UUID');
  }
  return { ticketId };
});

import type { PeriodicTask } from '@platform/database';
import type { TicketStatusPoller } from './ticket-status.poller';

/** How often the poll runs (docs/findings-service/tickets.md, "Polling"). */
export const TICKET_POLL_EVERY_MS = 3_600_000;

/** `ticket-status-poll`: on the leading worker only. */
export function ticketTasks(poller: TicketStatusPoller): PeriodicTask[] {
  return [
    {
      name: 'ticket-status-poll',
      everyMs: TICKET_POLL_EVERY_MS,
      run: async () => {
        await poller.pollOnce();
      },
    },
  ];
}

import type { PeriodicTask } from '@platform/database';
import type { TicketSyncFeed } from './sync/ticket-sync.feed';
import type { TicketStatusPoller } from './ticket-status.poller';

/** How often the poll runs (docs/findings-service/tickets.md, "Polling"). */
export const TICKET_POLL_EVERY_MS = 3_600_000;

/** How often the sync feed reads the action log (docs/findings-service/tickets.md). */
export const TICKET_SYNC_FEED_EVERY_MS = 2_000;

/** `ticket-status-poll` and `ticket-sync-feed`: on the leading worker only. */
export function ticketTasks(poller: TicketStatusPoller, syncFeed: TicketSyncFeed): PeriodicTask[] {
  return [
    {
      name: 'ticket-sync-feed',
      everyMs: TICKET_SYNC_FEED_EVERY_MS,
      run: async () => {
        await syncFeed.tick();
      },
    },
    {
      name: 'ticket-status-poll',
      everyMs: TICKET_POLL_EVERY_MS,
      run: async () => {
        await poller.pollOnce();
      },
    },
  ];
}

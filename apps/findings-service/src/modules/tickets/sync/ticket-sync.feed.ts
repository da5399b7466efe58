import { Injectable, Logger } from '@nestjs/common';
import { addJob } from '@platform/queue';
import { FindingsMetrics } from '../../../app/metrics/findings-metrics';
import { FeedLagMeter, readFeed } from '../../action-log';
import {
  TICKET_SYNC,
  TICKET_SYNC_ATTEMPTS,
  TICKET_SYNC_BACKOFF_MS,
  TICKET_SYNC_ENQUEUE_BATCH,
  ticketSyncJobId,
} from './ticket-sync.job';
import { TicketSyncQueue } from './ticket-sync-queue.provider';
import { TicketSyncRepository } from './ticket-sync.repository';

/** Feed pages one tick reads at most (the next tick goes on). */
const PAGES_PER_TICK = 20;

export interface TicketSyncTick {
  /** Feed entries read. */
  entries: number;
  /** Tickets marked for a sync by those entries. */
  requested: number;
  /** Pending tickets handed to the queue (a ticket whose job waits is not added twice). */
  enqueued: number;
}

/**
 * The leader's `ticket-sync-feed` task (docs/findings-service/tickets.md, "Service to
 * tracker"): reads the action-log feed's `status_changed` entries and marks the tickets of
 * those findings for a sync in the same transaction as the cursor (a crash loses nothing: the
 * mark is in the database), then adds a `ticket-sync` job for each marked ticket. A ticket
 * whose job still waits or backs off keeps its one job (same id).
 */
@Injectable()
export class TicketSyncFeed {
  private readonly logger = new Logger('TicketSyncFeed');
  private readonly lag: FeedLagMeter;

  constructor(
    private readonly repository: TicketSyncRepository,
    private readonly queue: TicketSyncQueue,
    metrics: FindingsMetrics,
  ) {
    this.lag = new FeedLagMeter('tickets', metrics.registry, this.logger);
  }

  async tick(): Promise<TicketSyncTick> {
    const tick: TicketSyncTick = { entries: 0, requested: 0, enqueued: 0 };
    for (let page = 0; page < PAGES_PER_TICK; page++) {
      const read = await this.repository.transaction(async (manager) => {
        // Only state changes move a task: `created` entries (one per new finding) stay unread.
        const feedPage = await readFeed(manager, 'tickets', { actions: ['status_changed'] });
        const changed = feedPage.entries.map((e) => e.findingId);
        tick.requested += await this.repository.request(manager, [...new Set(changed)]);
        return feedPage;
      });
      tick.entries += read.entries.length;
      this.lag.observe(read.upper);
      if (!read.more) break;
    }
    tick.enqueued = await this.enqueue();
    return tick;
  }

  private async enqueue(): Promise<number> {
    let added = 0;
    for (const ticketId of await this.repository.pending(TICKET_SYNC_ENQUEUE_BATCH)) {
      try {
        await addJob(
          this.queue.queue,
          TICKET_SYNC,
          { ticketId },
          {
            jobId: ticketSyncJobId(ticketId),
            attempts: TICKET_SYNC_ATTEMPTS,
            backoff: { type: 'exponential', delay: TICKET_SYNC_BACKOFF_MS },
            // Gone once done either way (the ticket row keeps the outcome), so the next
            // request of the same ticket can use the id again.
            removeOnComplete: true,
            removeOnFail: true,
          },
        );
        added += 1;
      } catch (error) {
        this.logger.warn(`ticket-sync jobs not added (next tick): ${(error as Error).message}`);
        break;
      }
    }
    return added;
  }
}

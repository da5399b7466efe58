import { Inject, Injectable } from '@nestjs/common';
import { ProducerQueue } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { TICKET_BACKFILL_QUEUE } from './ticket-backfill.job';

/** The API's handle on the ticket-backfill queue (producer connection: Redis down = 503). */
@Injectable()
export class TicketBackfillQueue extends ProducerQueue {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super(() => ({
      redisUrl: config.redisUrl,
      queueName: TICKET_BACKFILL_QUEUE,
      prefix: config.reports.queuePrefix,
      connectionName: `findings-${config.role}-ticket-backfill`,
    }));
  }
}

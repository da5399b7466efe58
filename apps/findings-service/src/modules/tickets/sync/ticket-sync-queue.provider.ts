import { Inject, Injectable } from '@nestjs/common';
import { ProducerQueue } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { TICKET_SYNC_QUEUE } from './ticket-sync.job';

/** The leader's handle on the ticket-sync queue (producer connection: Redis down fails fast). */
@Injectable()
export class TicketSyncQueue extends ProducerQueue {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super(() => ({
      redisUrl: config.redisUrl,
      queueName: TICKET_SYNC_QUEUE,
      prefix: config.reports.queuePrefix,
      connectionName: `findings-${config.role}-ticket-sync`,
    }));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ProducerQueue } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { ENRICHMENT_QUEUE } from './enrichment.job';

/** A process's handle on the enrichment queue (producer connection: fails fast without Redis). */
@Injectable()
export class EnrichmentQueue extends ProducerQueue {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super(() => ({
      redisUrl: config.redisUrl,
      queueName: ENRICHMENT_QUEUE,
      prefix: config.reports.queuePrefix,
      connectionName: `findings-${config.role}-enrichment`,
    }));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ProducerQueue } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { SUPPRESSION_RUN_QUEUE } from './suppression-run.job';

/** The API's handle on the suppression-run queue (producer connection: Redis down = 503). */
@Injectable()
export class SuppressionRunQueue extends ProducerQueue {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super(() => ({
      redisUrl: config.redisUrl,
      queueName: SUPPRESSION_RUN_QUEUE,
      prefix: config.reports.queuePrefix,
      connectionName: `findings-${config.role}-suppression-run`,
    }));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ProducerQueue } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { AUTO_CLOSURE_QUEUE } from './closure-check.job';

/** A process's handle on the closure-check queue (producer connection). */
@Injectable()
export class AutoClosureQueue extends ProducerQueue {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super(() => ({
      redisUrl: config.redisUrl,
      queueName: AUTO_CLOSURE_QUEUE,
      prefix: config.reports.queuePrefix,
      connectionName: `findings-${config.role}-auto-closure`,
    }));
  }
}

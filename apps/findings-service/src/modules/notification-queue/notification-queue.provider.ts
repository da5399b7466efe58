import { Inject, Injectable } from '@nestjs/common';
import { ProducerQueue } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { NOTIFICATION_QUEUE } from './sla-deadline-notification.job';

/**
 * A process's handle on the notification queue (producer connection: commands fail at once
 * while Redis is down, so the hourly check reports the outage instead of hanging).
 */
@Injectable()
export class NotificationQueue extends ProducerQueue {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super(() => ({
      redisUrl: config.redisUrl,
      queueName: NOTIFICATION_QUEUE,
      prefix: config.reports.queuePrefix,
      connectionName: `findings-${config.role}-notifications`,
    }));
  }
}

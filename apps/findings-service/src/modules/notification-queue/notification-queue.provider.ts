import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { NOTIFICATION_QUEUE } from './sla-deadline-notification.job';

/**
 * A process's handle on the notification queue (producer connection: commands fail at once
 * while Redis is down, so the hourly check reports the outage instead of hanging).
 */
@Injectable()
export class NotificationQueue implements OnApplicationShutdown {
  private connection: Redis | undefined;
  private instance: Queue | undefined;

  constructor(@Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig) {}

  get queue(): Queue {
    if (!this.instance) {
      this.connection = createRedisConnection(this.config.redisUrl, {
        name: `findings-${this.config.role}-notifications`,
        role: 'producer',
      });
      this.instance = new Queue(NOTIFICATION_QUEUE, {
        connection: this.connection,
        prefix: this.config.reports.queuePrefix,
      });
      this.instance.on('error', () => undefined);
    }
    return this.instance;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.instance?.close().catch(() => undefined);
    this.connection?.disconnect();
  }
}

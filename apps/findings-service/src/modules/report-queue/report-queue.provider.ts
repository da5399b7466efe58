import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { REPORT_INGESTION_QUEUE } from './ingest-report.job';

/**
 * The API process's handle on the ingestion queue: adds jobs and reads their state. Uses a
 * `producer` connection, so commands fail at once while Redis is down (503, not a hang).
 */
@Injectable()
export class ReportQueue implements OnApplicationShutdown {
  private connection: Redis | undefined;
  private instance: Queue | undefined;

  constructor(@Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig) {}

  get queue(): Queue {
    if (!this.instance) {
      this.connection = createRedisConnection(this.config.redisUrl, {
        name: `findings-${this.config.role}-queue`,
        role: 'producer',
      });
      this.instance = new Queue(REPORT_INGESTION_QUEUE, {
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

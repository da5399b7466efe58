import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { ENRICHMENT_QUEUE } from './enrichment.job';

/** A process's handle on the enrichment queue (producer connection: fails fast without Redis). */
@Injectable()
export class EnrichmentQueue implements OnApplicationShutdown {
  private connection: Redis | undefined;
  private instance: Queue | undefined;

  constructor(@Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig) {}

  get queue(): Queue {
    if (!this.instance) {
      this.connection = createRedisConnection(this.config.redisUrl, {
        name: `findings-${this.config.role}-enrichment`,
        role: 'producer',
      });
      this.instance = new Queue(ENRICHMENT_QUEUE, {
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

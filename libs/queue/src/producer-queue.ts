import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedisConnection } from './redis-connection';

export interface ProducerQueueOptions {
  redisUrl: string;
  /** The BullMQ queue name. */
  queueName: string;
  /** BullMQ key prefix. */
  prefix: string;
  /** Connection name shown by `CLIENT LIST`. */
  connectionName: string;
}

/**
 * A process's handle on one BullMQ queue for adding jobs and reading their state, opened on
 * first use over a `producer` connection: commands fail at once while Redis is down (an HTTP
 * request answers 503, a periodic task reports the outage) instead of hanging. Closed with the
 * application (Nest calls `onApplicationShutdown` on providers that extend it).
 */
export class ProducerQueue {
  private connection: Redis | undefined;
  private instance: Queue | undefined;

  constructor(private readonly options: () => ProducerQueueOptions) {}

  get queue(): Queue {
    if (!this.instance) {
      const { redisUrl, queueName, prefix, connectionName } = this.options();
      this.connection = createRedisConnection(redisUrl, {
        name: connectionName,
        role: 'producer',
      });
      this.instance = new Queue(queueName, { connection: this.connection, prefix });
      // Errors surface on the commands themselves; without a listener they are also printed.
      this.instance.on('error', () => undefined);
    }
    return this.instance;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.instance?.close().catch(() => undefined);
    this.connection?.disconnect();
  }
}

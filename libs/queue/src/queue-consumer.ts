import type { Tracing } from '@platform/tracing';
import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { tracedJobConsumer } from './job-trace';
import { createRedisConnection } from './redis-connection';

export interface QueueConsumerOptions {
  redisUrl: string;
  /** BullMQ key prefix. */
  prefix: string;
  queue: string;
  /** Connection name shown by `CLIENT LIST`. */
  connectionName: string;
  tracing: Tracing;
  /** Where Redis and worker errors go (they are retried by the client, never thrown). */
  logger: { warn(message: string): void };
  /** Concurrency, lock duration, stalled count...: BullMQ's own options. */
  worker: Omit<WorkerOptions, 'connection' | 'prefix'>;
  /** Runs one job inside its trace (the producer's, carried in the data). */
  process(job: Job): Promise<unknown>;
}

/**
 * A BullMQ consumer of one queue over its own `worker` connection, each job traced. Open it on
 * application bootstrap and close it on shutdown (the worker finishes its jobs in flight first).
 * A payload that fails its contract (`JobContract.parse`) is already unrecoverable: the process
 * function needs no wrapper of its own.
 */
export class QueueConsumer {
  readonly worker: Worker;
  private readonly connection: Redis;

  constructor(options: QueueConsumerOptions) {
    const { logger, queue } = options;
    this.connection = createRedisConnection(options.redisUrl, {
      name: options.connectionName,
      role: 'worker',
      onError: (error) => logger.warn(`redis: ${error.message}`),
    });
    this.worker = new Worker(queue, tracedJobConsumer(options.tracing, queue, options.process), {
      ...options.worker,
      connection: this.connection,
      prefix: options.prefix,
    });
    this.worker.on('error', (error) => logger.warn(`worker: ${error.message}`));
  }

  async close(): Promise<void> {
    await this.worker.close();
    this.connection.disconnect();
  }
}

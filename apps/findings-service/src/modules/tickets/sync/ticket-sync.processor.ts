import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { createRedisConnection, tracedJobConsumer } from '@platform/queue';
import { Tracing } from '@platform/tracing';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { TICKET_SYNC, TICKET_SYNC_ATTEMPTS, TICKET_SYNC_QUEUE } from './ticket-sync.job';
import { TicketSyncRunner, type TicketSyncOutcome } from './ticket-sync.runner';

/** The consumer of the ticket-sync queue in the worker (every replica, 4 at once). */
@Injectable()
export class TicketSyncProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TicketSyncProcessor');
  private connection: Redis | undefined;
  private worker: Worker | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly runner: TicketSyncRunner,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.config.redisUrl, {
      name: 'findings-worker-ticket-sync',
      role: 'worker',
      onError: (error) => this.logger.warn(`redis: ${error.message}`),
    });
    const consume = tracedJobConsumer(this.tracing, TICKET_SYNC_QUEUE, (job) => this.process(job));
    this.worker = new Worker(TICKET_SYNC_QUEUE, consume, {
      connection: this.connection,
      prefix: this.config.reports.queuePrefix,
      concurrency: 4,
    });
    this.worker.on('error', (error) => this.logger.warn(`worker: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }

  private async process(job: Job): Promise<TicketSyncOutcome> {
    let payload;
    try {
      payload = TICKET_SYNC.parse(job.data);
    } catch (error) {
      throw new UnrecoverableError(`invalid_job_payload: ${(error as Error).message}`);
    }
    const attempts = job.opts.attempts ?? TICKET_SYNC_ATTEMPTS;
    return this.runner.sync(payload.ticketId, job.attemptsMade + 1 >= attempts);
  }
}

import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { QueueConsumer } from '@platform/queue';
import { Tracing } from '@platform/tracing';
import type { Job } from 'bullmq';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { TICKET_SYNC, TICKET_SYNC_ATTEMPTS, TICKET_SYNC_QUEUE } from './ticket-sync.job';
import { TicketSyncRunner, type TicketSyncOutcome } from './ticket-sync.runner';

/** The consumer of the ticket-sync queue in the worker (every replica, 4 at once). */
@Injectable()
export class TicketSyncProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TicketSyncProcessor');
  private consumer: QueueConsumer | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly runner: TicketSyncRunner,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = new QueueConsumer({
      redisUrl: this.config.redisUrl,
      prefix: this.config.reports.queuePrefix,
      queue: TICKET_SYNC_QUEUE,
      connectionName: 'findings-worker-ticket-sync',
      tracing: this.tracing,
      logger: this.logger,
      worker: { concurrency: 4 },
      process: (job) => this.process(job),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }

  private async process(job: Job): Promise<TicketSyncOutcome> {
    const { ticketId } = TICKET_SYNC.parse(job.data);
    const attempts = job.opts.attempts ?? TICKET_SYNC_ATTEMPTS;
    return this.runner.sync(ticketId, job.attemptsMade + 1 >= attempts);
  }
}

import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { QueueConsumer } from '@platform/queue';
import { Tracing } from '@platform/tracing';
import { UnrecoverableError, type Job } from 'bullmq';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { TICKET_BACKFILL, TICKET_BACKFILL_QUEUE } from './ticket-backfill.job';
import { TicketBackfillRunner, type BackfillResult } from './ticket-backfill.runner';

/** A page of provider calls can take minutes on a slow tracker; the lock is renewed meanwhile. */
const TICKET_BACKFILL_LOCK_MS = 120_000;

/**
 * The consumer of the ticket-backfill queue in the worker (concurrency 2 per replica). A
 * worker that dies mid-walk leaves the job stalled; BullMQ hands it to another worker, which
 * resumes after the row's cursor.
 */
@Injectable()
export class TicketBackfillProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TicketBackfillProcessor');
  private consumer: QueueConsumer | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly runner: TicketBackfillRunner,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = new QueueConsumer({
      redisUrl: this.config.redisUrl,
      prefix: this.config.reports.queuePrefix,
      queue: TICKET_BACKFILL_QUEUE,
      connectionName: 'findings-worker-ticket-backfill',
      tracing: this.tracing,
      logger: this.logger,
      worker: { concurrency: 2, lockDuration: TICKET_BACKFILL_LOCK_MS, maxStalledCount: 3 },
      process: (job) => this.process(job),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }

  private async process(job: Job): Promise<BackfillResult> {
    const payload = TICKET_BACKFILL.parse(job.data);
    const result = await this.runner.run(payload, (counts) => job.updateProgress({ ...counts }));
    if (result.state === 'failed') {
      throw new UnrecoverableError(
        'ticket_provider_error: the provider refused three calls in a row',
      );
    }
    return result;
  }
}

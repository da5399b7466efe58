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
  private connection: Redis | undefined;
  private worker: Worker | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly runner: TicketBackfillRunner,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.config.redisUrl, {
      name: 'findings-worker-ticket-backfill',
      role: 'worker',
      onError: (error) => this.logger.warn(`redis: ${error.message}`),
    });
    const consume = tracedJobConsumer(this.tracing, TICKET_BACKFILL_QUEUE, (job) =>
      this.process(job),
    );
    this.worker = new Worker(TICKET_BACKFILL_QUEUE, consume, {
      connection: this.connection,
      prefix: this.config.reports.queuePrefix,
      concurrency: 2,
      lockDuration: TICKET_BACKFILL_LOCK_MS,
      maxStalledCount: 3,
    });
    this.worker.on('error', (error) => this.logger.warn(`worker: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }

  private async process(job: Job): Promise<BackfillResult> {
    let payload;
    try {
      payload = TICKET_BACKFILL.parse(job.data);
    } catch (error) {
      throw new UnrecoverableError(`invalid_job_payload: ${(error as Error).message}`);
    }
    const result = await this.runner.run(payload, (counts) => job.updateProgress({ ...counts }));
    if (result.state === 'failed') {
      throw new UnrecoverableError(
        'ticket_provider_error: the provider refused three calls in a row',
      );
    }
    return result;
  }
}

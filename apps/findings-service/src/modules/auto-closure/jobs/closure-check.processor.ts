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
import { ClosureCheckService, type AttemptOutcome } from '../closure-check.service';
import { AUTO_CLOSURE_QUEUE, CLOSURE_CHECK } from './closure-check.job';

/** A check attempt is one or two set-based statements over a product; a minute is generous. */
const CLOSURE_CHECK_LOCK_MS = 60_000;

/**
 * The consumer of the closure-check queue in the worker process, one job at a time (checks of
 * one project serialize on the project's closure lock anyway). An invalid payload ends the job;
 * a database failure is retried with backoff (attempts are idempotent).
 */
@Injectable()
export class ClosureCheckProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ClosureCheckProcessor');
  private consumer: QueueConsumer | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly checks: ClosureCheckService,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = new QueueConsumer({
      redisUrl: this.config.redisUrl,
      prefix: this.config.reports.queuePrefix,
      queue: AUTO_CLOSURE_QUEUE,
      connectionName: 'findings-worker-auto-closure',
      tracing: this.tracing,
      logger: this.logger,
      worker: { concurrency: 1, lockDuration: CLOSURE_CHECK_LOCK_MS, maxStalledCount: 2 },
      process: (job) => this.process(job),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }

  private async process(job: Job): Promise<AttemptOutcome> {
    return this.checks.runAttempt(CLOSURE_CHECK.parse(job.data));
  }
}

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
  private connection: Redis | undefined;
  private worker: Worker | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly checks: ClosureCheckService,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.config.redisUrl, {
      name: 'findings-worker-auto-closure',
      role: 'worker',
      onError: (error) => this.logger.warn(`redis: ${error.message}`),
    });
    const consume = tracedJobConsumer(this.tracing, AUTO_CLOSURE_QUEUE, (job) => this.process(job));
    this.worker = new Worker(AUTO_CLOSURE_QUEUE, consume, {
      connection: this.connection,
      prefix: this.config.reports.queuePrefix,
      concurrency: 1,
      lockDuration: CLOSURE_CHECK_LOCK_MS,
      maxStalledCount: 2,
    });
    this.worker.on('error', (error) => this.logger.warn(`worker: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }

  private async process(job: Job): Promise<AttemptOutcome> {
    let payload;
    try {
      payload = CLOSURE_CHECK.parse(job.data);
    } catch (error) {
      throw new UnrecoverableError(`invalid_job_payload: ${(error as Error).message}`);
    }
    return this.checks.runAttempt(payload);
  }
}

import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../config/config.tokens';
import type { FindingsConfig } from '../../config/findings-config';
import { INGEST_REPORT, REPORT_INGESTION_QUEUE } from '../jobs/ingest-report.job';
import { IngestionReportsRepository } from './ingestion-reports.repository';
import { IngestionResult, ReportIngestionService } from './report-ingestion.service';

/**
 * The BullMQ consumer of the ingestion queue in the worker process. A job whose worker died is
 * picked up again once its lock (INGEST_LOCK_MS) expires; when the last attempt fails the
 * report is marked failed with the error.
 */
@Injectable()
export class IngestionProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IngestionProcessor');
  private connection: Redis | undefined;
  private worker: Worker | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly ingestion: ReportIngestionService,
    private readonly reports: IngestionReportsRepository,
  ) {}

  onApplicationBootstrap(): void {
    const settings = this.config.reports;
    this.connection = createRedisConnection(this.config.redisUrl, {
      name: 'findings-worker-ingestion',
      role: 'worker',
      onError: (error) => this.logger.warn(`redis: ${error.message}`),
    });
    this.worker = new Worker(REPORT_INGESTION_QUEUE, (job) => this.process(job), {
      connection: this.connection,
      prefix: settings.queuePrefix,
      concurrency: settings.ingestConcurrency,
      lockDuration: settings.ingestLockMs,
      stalledInterval: Math.max(1_000, Math.floor(settings.ingestLockMs / 2)),
      maxStalledCount: 2,
    });
    this.worker.on('failed', (job, error) => void this.onFailed(job, error));
    this.worker.on('error', (error) => this.logger.warn(`worker: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }

  private async process(job: Job): Promise<IngestionResult> {
    const { reportId } = INGEST_REPORT.parse(job.data);
    const started = Date.now();
    const result = await this.ingestion.ingest(reportId);
    this.logger.log(`report ${reportId}: ${result} in ${Date.now() - started} ms`);
    return result;
  }

  private async onFailed(job: Job | undefined, error: Error): Promise<void> {
    if (!job) return;
    const attempts = job.opts.attempts ?? 1;
    const final = error.name === 'UnrecoverableError' || job.attemptsMade >= attempts;
    this.logger.warn(
      `ingestion job ${job.id} failed (attempt ${job.attemptsMade}): ${error.message}`,
    );
    const reportId =
      typeof job.data === 'object' && job.data
        ? (job.data as { reportId?: unknown }).reportId
        : undefined;
    if (final && typeof reportId === 'string') {
      await this.reports
        .fail(reportId, 'internal_error', `ingestion failed: ${error.message}`)
        .catch((e: unknown) =>
          this.logger.error(`could not mark report ${reportId} failed: ${String(e)}`),
        );
    }
  }
}

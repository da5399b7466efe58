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
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { ClosureCheckService } from '../auto-closure/closure-check.service';
import { EnrichmentScheduler } from '../enrichment/enrichment-scheduler.service';
import { INGEST_REPORT, REPORT_INGESTION_QUEUE } from '../report-queue/ingest-report.job';
import { classifyIngestionFailure, isTransientFailureCode } from './ingestion-failure';
import { IngestionReportsRepository } from './ingestion-reports.repository';
import { IngestionResult, ReportIngestionService } from './report-ingestion.service';

/**
 * The BullMQ consumer of the ingestion queue in the worker process. Only transient failures
 * (database or storage unreachable, lock and statement timeouts, serialization failures,
 * deadlocks) are retried; any other failure fails the report at once with a stable code (an
 * UnrecoverableError ends the job). A job whose worker died is picked up again once its lock
 * (INGEST_LOCK_MS) expires. The job's `failedReason` is the failure code; the internal detail
 * is only logged.
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
    private readonly tracing: Tracing,
    private readonly enrichment: EnrichmentScheduler,
    private readonly closureChecks: ClosureCheckService,
  ) {}

  onApplicationBootstrap(): void {
    const settings = this.config.reports;
    this.connection = createRedisConnection(this.config.redisUrl, {
      name: 'findings-worker-ingestion',
      role: 'worker',
      onError: (error) => this.logger.warn(`redis: ${error.message}`),
    });
    // One consumer span per job, in the trace of the upload that queued it (never per finding).
    const consume = tracedJobConsumer(this.tracing, REPORT_INGESTION_QUEUE, (job) =>
      this.process(job),
    );
    this.worker = new Worker(REPORT_INGESTION_QUEUE, consume, {
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
    let reportId: string;
    try {
      reportId = INGEST_REPORT.parse(job.data).reportId;
    } catch {
      throw new UnrecoverableError('invalid_job_payload');
    }
    const started = Date.now();
    try {
      const result = await this.ingestion.ingest(reportId);
      this.logger.log(`report ${reportId}: ${result} in ${Date.now() - started} ms`);
      if (result === 'completed') {
        await this.scheduleEnrichment(reportId);
        await this.scheduleClosureCheck(reportId);
      }
      return result;
    } catch (error) {
      throw await this.failure(reportId, job, error);
    }
  }

  /**
   * The report's new findings go to every enabled enricher (background jobs). The report is
   * complete whatever happens here: a failure to queue is logged, not retried as ingestion.
   */
  private async scheduleEnrichment(reportId: string): Promise<void> {
    try {
      await this.enrichment.reportIngested(reportId);
    } catch (error) {
      this.logger.warn(`report ${reportId}: enrichment not queued (${(error as Error).message})`);
    }
  }

  /**
   * A report that asked for it (`verify_fixes`) gets its closure check. Like enrichment, the
   * report is complete whatever happens here: a failure to queue is logged, and such a report
   * counts for no finding's streak (a check that did not happen never closes anything).
   */
  private async scheduleClosureCheck(reportId: string): Promise<void> {
    try {
      await this.closureChecks.reportCompleted(reportId);
    } catch (error) {
      this.logger.warn(
        `report ${reportId}: closure check not queued (${(error as Error).message})`,
      );
    }
  }

  /**
   * The error that ends this attempt: a transient failure is retried (its code as message); any
   * other fails the report now (an internal error with an id that names its log line).
   */
  private async failure(reportId: string, job: Job, error: unknown): Promise<Error> {
    if (error instanceof UnrecoverableError) return error;
    const failure = classifyIngestionFailure(error);
    const attempt = `report ${reportId} attempt ${job.attemptsMade + 1}`;
    if (failure.retry) {
      this.logger.warn(`${attempt}: ${failure.code}, will be retried (${failure.log})`);
      return new Error(failure.code);
    }
    const errorId = failure.code === 'internal_error' ? randomUUID() : undefined;
    const log = `${attempt} failed: ${failure.code}${errorId ? ` error_id=${errorId}` : ''} (${failure.log})`;
    if (errorId) this.logger.error(`${log}${error instanceof Error ? `\n${error.stack}` : ''}`);
    else this.logger.warn(log);
    try {
      await this.reports.fail(
        reportId,
        failure.code,
        errorId ? { error_id: errorId } : failure.details,
      );
    } catch (marking) {
      // The report stays pending: the next attempt fails it (or the last one, see onFailed).
      const cause = classifyIngestionFailure(marking);
      this.logger.warn(`${attempt}: could not mark the report failed (${cause.log})`);
      return new Error(cause.retry ? cause.code : 'internal_error');
    }
    return new UnrecoverableError(failure.code);
  }

  /** After the last attempt of a transient failure (or a stalled job): the report fails. */
  private async onFailed(job: Job | undefined, error: Error): Promise<void> {
    if (!job || error.name === 'UnrecoverableError') return;
    if (job.attemptsMade < (job.opts.attempts ?? 1)) return;
    const reportId =
      typeof job.data === 'object' && job.data
        ? (job.data as { reportId?: unknown }).reportId
        : undefined;
    if (typeof reportId !== 'string') return;
    const transient = isTransientFailureCode(error.message) ? error.message : undefined;
    const errorId = transient ? undefined : randomUUID();
    this.logger.error(
      `report ${reportId} failed after ${job.attemptsMade} attempts: ${transient ?? `internal_error error_id=${errorId} (${error.message.slice(0, 300)})`}`,
    );
    await this.reports
      .fail(reportId, transient ?? 'internal_error', errorId ? { error_id: errorId } : undefined)
      .catch((e: unknown) =>
        this.logger.error(`could not mark report ${reportId} failed: ${String(e)}`),
      );
  }
}

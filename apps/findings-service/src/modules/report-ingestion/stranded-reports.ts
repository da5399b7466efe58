import { Inject, Injectable, Logger } from '@nestjs/common';
import { addJob } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { INGEST_REPORT, ingestJobOptions } from '../report-queue/ingest-report.job';
import { ReportQueue } from '../report-queue/report-queue.provider';
import { IngestionReportsRepository } from './ingestion-reports.repository';

/** A pending report without a job this long after its upload gets its job again. */
export const STRANDED_REPORT_SECONDS = 30;
/** How often the leading worker looks (the `report-requeue` task). */
export const STRANDED_REPORT_CHECK_EVERY_MS = 10_000;
const BATCH = 500;

/**
 * The leader's `report-requeue` task. An upload records its report, then adds the ingestion job
 * (reports.service.ts): an API process killed between the two leaves a pending report that no
 * job will ever take (its client, cut off, retries as a new upload). Every pending report older
 * than STRANDED_REPORT_SECONDS whose job is not in the queue gets it again, with the upload's
 * options and job id (the report id), so a job that exists — waiting, running, delayed or
 * failed — is never doubled, and a report is still ingested once.
 *
 * Cost: one job lookup per candidate, at most BATCH (500) per pass. A backlog of queued uploads
 * older than the threshold is the common case (each still has its job); a pipelined existence
 * check would need BullMQ's raw client, which this BullMQ version keeps inside its backend.
 */
@Injectable()
export class StrandedReports {
  private readonly logger = new Logger('Ingestion');

  constructor(
    private readonly reports: IngestionReportsRepository,
    private readonly queue: ReportQueue,
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
  ) {}

  async requeue(): Promise<{ readded: number }> {
    const pending = await this.reports.pendingOlderThan(STRANDED_REPORT_SECONDS, BATCH);
    let readded = 0;
    for (const report of pending) {
      if (await this.queue.queue.getJob(report.id)) continue;
      await addJob(
        this.queue.queue,
        INGEST_REPORT,
        { reportId: report.id, productId: report.productId, projectId: report.projectId },
        ingestJobOptions(report.id, this.config.reports.ingestAttempts),
      );
      readded += 1;
    }
    if (readded > 0) {
      this.logger.warn(
        { readded },
        'pending reports without an ingestion job got their job again (an API stopped between an upload and its job)',
      );
    }
    return { readded };
  }
}

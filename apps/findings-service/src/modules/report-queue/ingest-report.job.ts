import { isUUID } from 'class-validator';
import { defineJobContract } from '@platform/queue';

/** The queue that ingests uploaded reports: one job per report, job id = report id. */
export const REPORT_INGESTION_QUEUE = 'report-ingestion';

/** How long finished ingestion jobs stay in the queue (BullMQ `removeOnComplete/Fail` ages). */
export const INGEST_JOB_RETENTION_SECONDS = { completed: 7 * 24 * 3600, failed: 30 * 24 * 3600 };

/** The options of a report's ingestion job (upload and re-add alike): job id = report id. */
export function ingestJobOptions(reportId: string, attempts: number) {
  return {
    jobId: reportId,
    attempts,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: INGEST_JOB_RETENTION_SECONDS.completed },
    removeOnFail: { age: INGEST_JOB_RETENTION_SECONDS.failed },
  };
}

export interface IngestReportJob {
  reportId: string;
  productId: string;
  projectId: string;
}

export const INGEST_REPORT = defineJobContract<IngestReportJob>('ingest-report', (data) => {
  if (typeof data !== 'object' || data === null) throw new Error('expected an object');
  const { reportId, productId, projectId } = data as Record<string, unknown>;
  for (const [name, value] of Object.entries({ reportId, productId, projectId })) {
    if (typeof value !== 'string' || !isUUID(value, 'loose'))
      throw new Error(`${name} must be a UUID`);
  }
  return { reportId, productId, projectId } as IngestReportJob;
});

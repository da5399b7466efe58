import { QueueUnavailableError } from '@platform/queue';
import { REPORT_INGESTION_QUEUE } from './ingest-report.job';

/** ioredis/socket failures that mean "Redis cannot answer now" (not a bug in the command). */
const OUTAGE =
  /Stream isn't writeable|Connection is closed|max retries per request|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|^LOADING|^READONLY/i;

/** Runs a queue read/command; Redis being unreachable becomes `queue_unavailable` (503). */
export async function guardQueue<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && OUTAGE.test(error.message)) {
      throw new QueueUnavailableError(REPORT_INGESTION_QUEUE, 'jobs-api', error.message, error);
    }
    throw error;
  }
}

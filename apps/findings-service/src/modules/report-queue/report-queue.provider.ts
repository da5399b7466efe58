import { Inject, Injectable } from '@nestjs/common';
import { ProducerQueue } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { REPORT_INGESTION_QUEUE } from './ingest-report.job';

/**
 * The API process's handle on the ingestion queue: adds jobs and reads their state. Uses a
 * `producer` connection, so commands fail at once while Redis is down (503, not a hang).
 */
@Injectable()
export class ReportQueue extends ProducerQueue {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super(() => ({
      redisUrl: config.redisUrl,
      queueName: REPORT_INGESTION_QUEUE,
      prefix: config.reports.queuePrefix,
      connectionName: `findings-${config.role}-queue`,
    }));
  }
}

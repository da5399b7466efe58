import { Module } from '@nestjs/common';
import { FindingsBulkWriteRepository } from '../findings/bulk-write/findings-bulk-write.repository';
import { AutoClosureCoreModule } from '../auto-closure/auto-closure-core.module';
import { EnrichmentCoreModule } from '../enrichment/enrichment-core.module';
import { ReportQueueModule } from '../report-queue/report-queue.module';
import { StorageModule } from '../storage/storage.module';
import { SuppressionCoreModule } from '../suppression/suppression-core.module';
import { IngestionProcessor } from './ingestion.processor';
import { IngestionReportsRepository } from './ingestion-reports.repository';
import { ReportIngestionService } from './report-ingestion.service';
import { StrandedReports } from './stranded-reports';

/** Worker-process side of ingestion: the queue consumer and the set-based write path. */
@Module({
  imports: [
    StorageModule,
    EnrichmentCoreModule,
    AutoClosureCoreModule,
    SuppressionCoreModule,
    ReportQueueModule,
  ],
  providers: [
    IngestionReportsRepository,
    FindingsBulkWriteRepository,
    ReportIngestionService,
    IngestionProcessor,
    StrandedReports,
  ],
  exports: [ReportIngestionService, StrandedReports],
})
export class IngestionWorkerModule {}

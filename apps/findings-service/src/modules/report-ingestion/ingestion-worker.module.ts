import { Module } from '@nestjs/common';
import { FindingsBulkWriteRepository } from '../findings/bulk-write/findings-bulk-write.repository';
import { AutoClosureCoreModule } from '../auto-closure/auto-closure-core.module';
import { EnrichmentCoreModule } from '../enrichment/enrichment-core.module';
import { StorageModule } from '../storage/storage.module';
import { SuppressionCoreModule } from '../suppression/suppression-core.module';
import { IngestionProcessor } from './ingestion.processor';
import { IngestionReportsRepository } from './ingestion-reports.repository';
import { ReportIngestionService } from './report-ingestion.service';

/** Worker-process side of ingestion: the queue consumer and the set-based write path. */
@Module({
  imports: [StorageModule, EnrichmentCoreModule, AutoClosureCoreModule, SuppressionCoreModule],
  providers: [
    IngestionReportsRepository,
    FindingsBulkWriteRepository,
    ReportIngestionService,
    IngestionProcessor,
  ],
  exports: [ReportIngestionService],
})
export class IngestionWorkerModule {}

import { Module } from '@nestjs/common';
import { FindingsIngestionRepository } from '../findings/ingestion/findings-ingestion.repository';
import { StorageModule } from '../storage/storage.module';
import { IngestionProcessor } from './ingestion.processor';
import { IngestionReportsRepository } from './ingestion-reports.repository';
import { ReportIngestionService } from './report-ingestion.service';

/** Worker-process side of ingestion: the queue consumer and the set-based write path. */
@Module({
  imports: [StorageModule],
  providers: [
    IngestionReportsRepository,
    FindingsIngestionRepository,
    ReportIngestionService,
    IngestionProcessor,
  ],
  exports: [ReportIngestionService],
})
export class IngestionWorkerModule {}

import { Module } from '@nestjs/common';
import { StorageModule } from '../storage/storage.module';
import { CleanupRepository } from './cleanup.repository';
import { ReportCleanupService } from './report-cleanup.service';

/** The worker's report and refresh-token cleanup (run by the periodic task `report-cleanup`). */
@Module({
  imports: [StorageModule],
  providers: [CleanupRepository, ReportCleanupService],
  exports: [ReportCleanupService],
})
export class CleanupModule {}

import { Module } from '@nestjs/common';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { LocalReportStorage } from './local-report-storage';
import { REPORT_STORAGE } from './report-storage';

/** Provides the ReportStorage (a local directory; swap the factory for object storage). */
@Module({
  providers: [
    {
      provide: REPORT_STORAGE,
      inject: [FINDINGS_CONFIG],
      useFactory: (config: FindingsConfig) => new LocalReportStorage(config.reports.storageDir),
    },
  ],
  exports: [REPORT_STORAGE],
})
export class StorageModule {}

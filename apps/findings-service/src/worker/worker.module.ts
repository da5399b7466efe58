import { DynamicModule, Module } from '@nestjs/common';
import { FindingsLoggerModule } from '../app/logging/logger.module';
import { FindingsMetrics } from '../app/metrics/findings-metrics';
import { MetricsModule } from '../app/metrics/metrics.module';
import { FindingsConfigModule } from '../app/config/config.module';
import { FindingsConfig } from '../app/config/findings-config';
import { DatabaseModule } from '../database/database.module';
import { IngestionWorkerModule } from '../modules/ingestion/ingestion-worker.module';
import { WorkerLifecycleService } from './worker-lifecycle.service';

/** The queue-worker process: no HTTP; job processors are added by the ingestion issue. */
@Module({})
export class WorkerModule {
  static forRoot(config: FindingsConfig, metrics: FindingsMetrics): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        FindingsConfigModule.forRoot(config),
        FindingsLoggerModule.forRoot(config),
        MetricsModule.forRoot(metrics),
        DatabaseModule.forRoot(config),
        IngestionWorkerModule,
      ],
      providers: [WorkerLifecycleService],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { LoggingModule } from '@platform/logging';
import { MetricsListenerModule } from '@platform/metrics';
import { TracingModule } from '@platform/tracing';
import { FindingsConfig } from '../app/config/findings-config';
import { CoreModule } from '../app/core.module';
import { createFindingsLogger } from '../app/logging/findings-logger';
import { FindingsMetrics } from '../app/metrics/findings-metrics';
import { startFindingsTracing } from '../app/tracing/findings-tracing';
import { findingsDatabase } from '../database/database';
import { IngestionWorkerModule } from '../modules/report-ingestion/ingestion-worker.module';
import { WorkerLifecycleService } from './worker-lifecycle.service';

/** The queue-worker process: no HTTP; queue consumers, its own metrics listener. */
@Module({})
export class WorkerModule {
  static forRoot(config: FindingsConfig, metrics: FindingsMetrics): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config, metrics),
        LoggingModule.forRoot({ logger: createFindingsLogger(config) }),
        TracingModule.forRoot(startFindingsTracing(config)),
        MetricsListenerModule.forRoot({
          registry: metrics.registry,
          port: config.metricsPort,
          host: config.host,
        }),
        findingsDatabase(config),
        IngestionWorkerModule,
      ],
      providers: [WorkerLifecycleService],
    };
  }
}

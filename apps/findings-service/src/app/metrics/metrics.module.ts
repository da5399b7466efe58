import { DynamicModule, Global, Module } from '@nestjs/common';
import { FindingsMetrics } from './findings-metrics';
import { MetricsServerService } from './metrics-server.service';

/** One registry per process; the metrics listener starts with the application. */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(metrics: FindingsMetrics): DynamicModule {
    return {
      module: MetricsModule,
      providers: [{ provide: FindingsMetrics, useValue: metrics }, MetricsServerService],
      exports: [FindingsMetrics, MetricsServerService],
    };
  }
}

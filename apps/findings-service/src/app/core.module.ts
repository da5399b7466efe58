import { DynamicModule, Global, Module } from '@nestjs/common';
import { FINDINGS_CONFIG } from './config/config.tokens';
import { FindingsConfig } from './config/findings-config';
import { FindingsMetrics } from './metrics/findings-metrics';

/** What every findings process is started with: its validated config and its metrics. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: FindingsConfig, metrics: FindingsMetrics): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: FINDINGS_CONFIG, useValue: config },
        { provide: FindingsMetrics, useValue: metrics },
      ],
      exports: [FINDINGS_CONFIG, FindingsMetrics],
    };
  }
}

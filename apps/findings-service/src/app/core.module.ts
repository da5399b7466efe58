import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { FINDINGS_CONFIG } from './config/config.tokens';
import { FindingsConfig } from './config/findings-config';
import { FindingsMetrics } from './metrics/findings-metrics';

/** What every findings process is started with: its validated config, its metrics, its clock. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: FindingsConfig, metrics: FindingsMetrics): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: FINDINGS_CONFIG, useValue: config },
        { provide: FindingsMetrics, useValue: metrics },
        Clock,
      ],
      exports: [FINDINGS_CONFIG, FindingsMetrics, Clock],
    };
  }
}

import { DynamicModule, Global, Module } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from './config/certsvc-config';
import { CertsvcMetrics } from './metrics/certsvc-metrics';

/** What every certificate-service process is started with: its validated config and metrics. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: CertsvcConfig, metrics: CertsvcMetrics): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: CERTSVC_CONFIG, useValue: config },
        { provide: CertsvcMetrics, useValue: metrics },
      ],
      exports: [CERTSVC_CONFIG, CertsvcMetrics],
    };
  }
}

import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CERTSVC_CONFIG, type CertsvcConfig } from './config/certsvc-config';
import { certificateDataSourceOptions } from '../database/data-source';
import { CERTSVC_LOGGER, type CertsvcLogger } from './logging/certsvc-logger';
import { CertsvcMetrics } from './metrics/certsvc-metrics';

/** What a process is started with: validated config, its logger and its metrics registry. */
export interface CertsvcRuntime {
  config: CertsvcConfig;
  logger: CertsvcLogger;
  metrics: CertsvcMetrics;
  /** `pg_stat_activity.application_name`. */
  applicationName: string;
}

/** Config, logger, metrics and the database connection, shared by the API and the worker. */
@Global()
@Module({})
export class CoreModule {
  static register(runtime: CertsvcRuntime): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        TypeOrmModule.forRoot({
          ...certificateDataSourceOptions(runtime.config.databaseUrl, runtime.applicationName),
          retryAttempts: 2,
          retryDelay: 1000,
        }),
      ],
      providers: [
        { provide: CERTSVC_CONFIG, useValue: runtime.config },
        { provide: CERTSVC_LOGGER, useValue: runtime.logger },
        { provide: CertsvcMetrics, useValue: runtime.metrics },
      ],
      exports: [CERTSVC_CONFIG, CERTSVC_LOGGER, CertsvcMetrics],
    };
  }
}

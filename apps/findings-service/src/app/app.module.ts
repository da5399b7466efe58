import { DynamicModule, Module, Type } from '@nestjs/common';
import { FindingsLoggerModule } from './logging/logger.module';
import { FindingsMetrics } from './metrics/findings-metrics';
import { MetricsModule } from './metrics/metrics.module';
import { FindingsConfigModule } from './config/config.module';
import { FindingsConfig } from './config/findings-config';
import { DatabaseModule } from '../database/database.module';
import { AuthModule } from '../modules/auth/auth.module';
import { HealthModule } from '../modules/health/health.module';
import { JobsModule } from '../modules/jobs/jobs.module';
import { FindingsModule } from '../modules/findings/findings.module';
import { ManualFindingsModule } from '../modules/findings/manual/manual-findings.module';
import { ProductsModule } from '../modules/products/products.module';
import { ProjectsModule } from '../modules/projects/projects.module';
import { ReportsModule } from '../modules/reports/reports.module';
import { ServiceAccountsModule } from '../modules/service-accounts/service-accounts.module';
import { UsersModule } from '../modules/users/users.module';

/** The HTTP API process. */
@Module({})
export class AppModule {
  static forRoot(
    config: FindingsConfig,
    metrics: FindingsMetrics,
    extraModules: Type<unknown>[] = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        FindingsConfigModule.forRoot(config),
        FindingsLoggerModule.forRoot(config),
        MetricsModule.forRoot(metrics),
        DatabaseModule.forRoot(config),
        HealthModule,
        AuthModule,
        UsersModule,
        ServiceAccountsModule,
        ProjectsModule,
        ProductsModule,
        ReportsModule,
        ManualFindingsModule,
        FindingsModule,
        JobsModule,
        ...extraModules,
      ],
    };
  }
}

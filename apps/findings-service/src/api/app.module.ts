import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { findingsDatabase } from '../database/database';
import { AuthModule } from '../modules/auth/auth.module';
import { AutoClosureModule } from '../modules/auto-closure/auto-closure.module';
import { ScannerCallbacksModule } from '../modules/scanner-callbacks/scanner-callbacks.module';
import { DashboardModule } from '../modules/dashboard/dashboard.module';
import { EnrichmentModule } from '../modules/enrichment/enrichment.module';
import { FindingSourcesModule } from '../modules/finding-sources/finding-sources.module';
import { PluginChannelsModule } from '../modules/plugin-channels/plugin-channels.module';
import { FindingsCascadesModule } from '../modules/findings/cascades/findings-cascades.module';
import { FindingsModule } from '../modules/findings/findings.module';
import { ManualFindingsModule } from '../modules/findings/manual/manual-findings.module';
import { HealthModule } from '../modules/health/health.module';
import { InventoryRollupModule } from '../modules/inventory-rollup/inventory-rollup.module';
import { JobsModule } from '../modules/jobs/jobs.module';
import { PluginAdminModule } from '../modules/plugins/plugin-admin.module';
import { ProductsModule } from '../modules/products/products.module';
import { ProjectsModule } from '../modules/projects/projects.module';
import { ScopeModule } from '../modules/scope/scope.module';
import { TicketsModule } from '../modules/tickets/tickets.module';
import { SuppressionModule } from '../modules/suppression/suppression.module';
import { ReportsModule } from '../modules/reports/reports.module';
import { ServiceAccountsModule } from '../modules/service-accounts/service-accounts.module';
import { SlaModule } from '../modules/sla/sla.module';
import { UsersModule } from '../modules/users/users.module';
import { FindingsConfig } from '../app/config/findings-config';
import { CoreModule } from '../app/core.module';
import { DataEnvelopeInterceptor } from '../app/http/data-envelope.interceptor';
import { BusinessMetricsModule } from './metrics/business-metrics.module';
import { FindingsMetrics } from '../app/metrics/findings-metrics';

/** The HTTP API process. `extraModules` lets tests mount probe routes. */
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
        CoreModule.forRoot(config, metrics),
        findingsDatabase(config),
        // The findings side of product, project, user and enrichment changes (their ports).
        FindingsCascadesModule,
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
        BusinessMetricsModule,
        SlaModule,
        DashboardModule.forRoot(config.dashboardToolSegment),
        PluginAdminModule,
        EnrichmentModule,
        FindingSourcesModule,
        PluginChannelsModule,
        AutoClosureModule.forRoot({
          manualReverification: config.autoClosure.manualReverification,
        }),
        ScannerCallbacksModule,
        ScopeModule,
        TicketsModule,
        SuppressionModule,
        InventoryRollupModule,
        ...extraModules,
      ],
      providers: [{ provide: APP_INTERCEPTOR, useClass: DataEnvelopeInterceptor }],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { PeriodicTasksModule } from '@platform/database';
import { LoggingModule } from '@platform/logging';
import { MetricsListenerModule } from '@platform/metrics';
import { TracingModule } from '@platform/tracing';
import { FindingsConfig } from '../app/config/findings-config';
import { CoreModule } from '../app/core.module';
import { createFindingsLogger } from '../app/logging/findings-logger';
import { FindingsMetrics } from '../app/metrics/findings-metrics';
import { startFindingsTracing } from '../app/tracing/findings-tracing';
import { findingsDatabase } from '../database/database';
import { CleanupModule } from '../modules/cleanup/cleanup.module';
import { AutoClosureCoreModule } from '../modules/auto-closure/auto-closure-core.module';
import { AutoClosureWorkerModule } from '../modules/auto-closure/auto-closure-worker.module';
import { AutoClosureService } from '../modules/auto-closure/auto-closure.service';
import { autoClosureTasks } from '../modules/auto-closure/auto-closure.tasks';
import { EnrichmentWorkerModule } from '../modules/enrichment/enrichment-worker.module';
import { FindingSourcesCoreModule } from '../modules/finding-sources/finding-sources.module';
import { FindingsCascadesModule } from '../modules/findings/cascades/findings-cascades.module';
import { FindingSourcesService } from '../modules/finding-sources/finding-sources.service';
import { findingSourceTasks } from '../modules/finding-sources/finding-sources.tasks';
import { cleanupTasks } from '../modules/cleanup/cleanup.tasks';
import { ReportCleanupService } from '../modules/cleanup/report-cleanup.service';
import { LifecycleTasksModule } from '../modules/findings/lifecycle/lifecycle-tasks.module';
import { StateExpiryService } from '../modules/findings/lifecycle/state-expiry.service';
import { FindingSearchIndexer } from '../modules/findings/search/finding-search-indexer.service';
import { FindingSearchModule } from '../modules/findings/search/finding-search.module';
import { findingSearchTasks } from '../modules/findings/search/finding-search.tasks';
import { IngestionWorkerModule } from '../modules/report-ingestion/ingestion-worker.module';
import { SlaCheckService } from '../modules/sla/sla-check.service';
import { SlaWorkerModule } from '../modules/sla/sla-worker.module';
import { NotificationsCoreModule } from '../modules/notifications/notifications-core.module';
import { NotificationsWorkerModule } from '../modules/notifications/notifications-worker.module';
import { ticketTasks } from '../modules/tickets/ticket.tasks';
import { TicketSyncFeed } from '../modules/tickets/sync/ticket-sync.feed';
import { TicketStatusPoller } from '../modules/tickets/ticket-status.poller';
import { TicketsWorkerModule } from '../modules/tickets/tickets-worker.module';
import { SuppressionCoreModule } from '../modules/suppression/suppression-core.module';
import { SuppressionRunsRepository } from '../modules/suppression/suppression-runs.repository';
import { suppressionTasks } from '../modules/suppression/suppression.tasks';
import { SuppressionWorkerModule } from '../modules/suppression/suppression-worker.module';
import { NotificationFeedService } from '../modules/notifications/notification-feed.service';
import { NotificationReconciler } from '../modules/notifications/notification-reconciler.service';
import { notificationTasks } from '../modules/notifications/notification.tasks';
import { ingestionTasks } from '../modules/report-ingestion/ingestion.tasks';
import { StrandedReports } from '../modules/report-ingestion/stranded-reports';
import { LIFECYCLE_SCHEDULE, lifecycleTasks, type LifecycleSchedule } from './lifecycle.tasks';
import { WorkerLifecycleService } from './worker-lifecycle.service';

/**
 * One leader among the worker replicas runs every periodic task. Keep one
 * PeriodicTasksModule for all of them: a second one under the same lock name would never lead.
 */
export const WORKER_LEADER_LOCK = 'findings-service:worker-leader';

/** Test hooks: shorter periods for the periodic tasks. */
export interface WorkerOptions {
  lifecycle?: Partial<LifecycleSchedule>;
  /** Period of the automatic closure's pass (default AUTO_CLOSURE_PASS_EVERY_MS). */
  autoClosurePassEveryMs?: number;
  /** Period of the search indexer (default SEARCH_INDEX_EVERY_MS). */
  searchIndexEveryMs?: number;
}

/**
 * The queue-worker process: no HTTP; queue consumers, periodic tasks under the leader lock,
 * its own metrics listener.
 */
@Module({})
export class WorkerModule {
  static forRoot(
    config: FindingsConfig,
    metrics: FindingsMetrics,
    options: WorkerOptions = {},
  ): DynamicModule {
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
        // The findings side of product, project, user and enrichment changes (their ports).
        FindingsCascadesModule,
        IngestionWorkerModule,
        EnrichmentWorkerModule,
        AutoClosureWorkerModule,
        NotificationsWorkerModule,
        TicketsWorkerModule,
        SuppressionWorkerModule,
        PeriodicTasksModule.forRoot({
          leaderLock: WORKER_LEADER_LOCK,
          imports: [
            LifecycleTasksModule,
            SlaWorkerModule,
            CleanupModule,
            FindingSourcesCoreModule,
            AutoClosureCoreModule,
            NotificationsCoreModule,
            TicketsWorkerModule,
            SuppressionCoreModule,
            FindingSearchModule,
            IngestionWorkerModule,
          ],
          inject: [
            StateExpiryService,
            SlaCheckService,
            ReportCleanupService,
            FindingSourcesService,
            AutoClosureService,
            NotificationFeedService,
            NotificationReconciler,
            TicketStatusPoller,
            TicketSyncFeed,
            SuppressionRunsRepository,
            FindingSearchIndexer,
            StrandedReports,
          ],
          tasks: (
            expiry: StateExpiryService,
            sla: SlaCheckService,
            cleanup: ReportCleanupService,
            sources: FindingSourcesService,
            autoClosure: AutoClosureService,
            feed: NotificationFeedService,
            reconciler: NotificationReconciler,
            ticketPoller: TicketStatusPoller,
            ticketSync: TicketSyncFeed,
            suppressionRuns: SuppressionRunsRepository,
            searchIndexer: FindingSearchIndexer,
            stranded: StrandedReports,
          ) => [
            ...lifecycleTasks(expiry, sla, {
              ...LIFECYCLE_SCHEDULE,
              slaCheckEveryMs: config.slaCheckIntervalSeconds * 1000,
              ...options.lifecycle,
            }),
            ...cleanupTasks(cleanup),
            ...findingSourceTasks(sources),
            ...autoClosureTasks(autoClosure, options.autoClosurePassEveryMs),
            ...notificationTasks(feed, reconciler, {
              feedEveryMs: config.notifications.feedIntervalMs,
              reconcileEveryMs: config.notifications.reconcileIntervalMs,
            }),
            ...ticketTasks(ticketPoller, ticketSync),
            ...suppressionTasks(suppressionRuns),
            ...findingSearchTasks(searchIndexer, options.searchIndexEveryMs),
            ...ingestionTasks(stranded),
          ],
        }),
      ],
      providers: [WorkerLifecycleService],
    };
  }
}

import { Module } from '@nestjs/common';
import { PluginsModule } from '../plugins/plugins.module';
import { CveCatalogModule } from './cve-catalog.module';
import { EnricherExecutionStates } from './enricher-execution-state';
import { EnrichmentQueue } from './enrichment-queue.provider';
import { EnrichmentRepository } from './enrichment.repository';
import { EnrichmentScheduler } from './enrichment-scheduler.service';
import { EnrichmentService } from './enrichment.service';

/** Enrichment for both processes: running an enricher, and queueing jobs when findings appear. */
@Module({
  imports: [PluginsModule, CveCatalogModule],
  providers: [
    EnrichmentRepository,
    EnrichmentService,
    EnrichmentScheduler,
    EnrichmentQueue,
    EnricherExecutionStates,
  ],
  exports: [
    EnrichmentRepository,
    EnrichmentService,
    EnrichmentScheduler,
    EnricherExecutionStates,
    PluginsModule,
  ],
})
export class EnrichmentCoreModule {}

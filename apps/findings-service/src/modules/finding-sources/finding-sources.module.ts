import { Module } from '@nestjs/common';
import { EnrichmentCoreModule } from '../enrichment/enrichment-core.module';
import { SuppressionCoreModule } from '../suppression/suppression-core.module';
import { FindingSourcesController } from './finding-sources.controller';
import { FindingSourcesRepository } from './finding-sources.repository';
import { FindingSourcesService } from './finding-sources.service';

/** Polling finding-source plugins (both processes; the API also serves sync-now). */
@Module({
  imports: [EnrichmentCoreModule, SuppressionCoreModule],
  providers: [FindingSourcesRepository, FindingSourcesService],
  exports: [FindingSourcesService, FindingSourcesRepository],
})
export class FindingSourcesCoreModule {}

@Module({
  imports: [FindingSourcesCoreModule],
  controllers: [FindingSourcesController],
  providers: [FindingSourcesRepository],
})
export class FindingSourcesModule {}

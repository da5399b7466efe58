import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { EnricherExecutionController } from './enricher-execution.controller';
import { EnricherExecutionService } from './enricher-execution.service';
import { EnrichmentController, PluginCapabilitiesController } from './enrichment.controller';
import { EnrichmentCoreModule } from './enrichment-core.module';
import { ManualEnrichmentService } from './manual-enrichment.service';

/** API side: manual enrichment and the capability lists (docs/plugins/enrichment.md). */
@Module({
  imports: [EnrichmentCoreModule, RateLimitModule],
  controllers: [EnrichmentController, PluginCapabilitiesController, EnricherExecutionController],
  providers: [ManualEnrichmentService, EnricherExecutionService],
})
export class EnrichmentModule {}

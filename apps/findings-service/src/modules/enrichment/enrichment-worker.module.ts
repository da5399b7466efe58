import { Module } from '@nestjs/common';
import { EnrichmentCoreModule } from './enrichment-core.module';
import { EnrichmentProcessor } from './enrichment.processor';

/** Worker side: the enrichment queue's consumer (PLUGIN_RUNNER_PER_PLUGIN_LIMIT − 1 at a time). */
@Module({ imports: [EnrichmentCoreModule], providers: [EnrichmentProcessor] })
export class EnrichmentWorkerModule {}

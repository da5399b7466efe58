import { Module } from '@nestjs/common';
import { EnrichmentCoreModule } from './enrichment-core.module';
import { EnrichmentFairness } from './enrichment-fairness';
import { EnrichmentProcessor } from './enrichment.processor';

/**
 * Worker side: the enrichment queue's consumer (ENRICHMENT_CONCURRENCY jobs at a time), each
 * enricher within its share (EnrichmentFairness).
 */
@Module({ imports: [EnrichmentCoreModule], providers: [EnrichmentProcessor, EnrichmentFairness] })
export class EnrichmentWorkerModule {}

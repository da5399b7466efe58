import { Module } from '@nestjs/common';
import { FindingSearchIndexer } from './finding-search-indexer.service';
import { FindingSearchRepository } from './finding-search.repository';

/** The worker's side of free-text search: the indexer of `finding_search`. */
@Module({
  providers: [FindingSearchRepository, FindingSearchIndexer],
  exports: [FindingSearchIndexer],
})
export class FindingSearchModule {}

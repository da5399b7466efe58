import type { PeriodicTask } from '@platform/database';
import type { FindingSearchIndexer } from './finding-search-indexer.service';

/**
 * How often the leading worker indexes new findings for search. The lag of the index is this
 * period plus the indexing time of what arrived (~10-20 k findings/s); until then new findings
 * are searched without the index (found all the same, a little slower).
 */
export const SEARCH_INDEX_EVERY_MS = 5_000;

/** `finding-search-index`: FindingSearchIndexer.catchUp on the leader. */
export function findingSearchTasks(
  indexer: FindingSearchIndexer,
  everyMs = SEARCH_INDEX_EVERY_MS,
): PeriodicTask[] {
  return [
    {
      name: 'finding-search-index',
      everyMs,
      run: async () => {
        await indexer.catchUp();
      },
    },
  ];
}

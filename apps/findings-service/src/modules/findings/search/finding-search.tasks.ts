import type { PeriodicTask } from '@platform/database';
import type { FindingSearchIndexer } from './finding-search-indexer.service';

/**
 * How often the leading worker indexes new findings for search. The lag of the index is this
 * period, plus up to SEARCH_INDEX_MAX_DEFER_MS while reports are being ingested, plus the
 * indexing time of what arrived (~5-10 k findings/s on 2 cores); until then new findings are
 * searched without the index (found all the same, slower).
 */
export const SEARCH_INDEX_EVERY_MS = 5_000;

/**
 * `finding-search-index`: FindingSearchIndexer.tick on the leader (waits up to
 * SEARCH_INDEX_MAX_DEFER_MS while a report is being ingested).
 */
export function findingSearchTasks(
  indexer: FindingSearchIndexer,
  everyMs = SEARCH_INDEX_EVERY_MS,
): PeriodicTask[] {
  return [
    {
      name: 'finding-search-index',
      everyMs,
      run: async () => {
        await indexer.tick();
      },
    },
  ];
}

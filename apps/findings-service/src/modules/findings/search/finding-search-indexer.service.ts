import { Injectable, Logger } from '@nestjs/common';
import { FindingSearchRepository, type SearchIndexKey } from './finding-search.repository';

/** Findings indexed per statement (one INSERT ... SELECT; ~0.3-0.5 s at 5 000 on 2 cores). */
export const SEARCH_INDEX_CHUNK = 5_000;

/** One run stops after this long and goes on at the next tick (the worker's stop waits for it). */
export const SEARCH_INDEX_RUN_BUDGET_MS = 20_000;

/**
 * While a report is being ingested the indexer waits, at most this long: on a machine of a few
 * cores the two would share them, and indexing (a trigram GIN insert per finding) costs more
 * CPU per finding than ingesting. Search meanwhile reads the new findings without the index.
 */
export const SEARCH_INDEX_MAX_DEFER_MS = 60_000;

/**
 * Fills `finding_search` behind the findings' creation (docs/findings-service/findings-api.md#free-text-search),
 * set-based, in `(created_at, id)` order from the frontier up to a bound that no running
 * transaction can still insert below (FindingSearchRepository.safeBound), then moves the
 * frontier to that bound. Leader-only in the worker, but safe anywhere: writes are idempotent
 * (`ON CONFLICT DO NOTHING`) and the frontier only moves forward, to a point this run has
 * indexed up to. A run that stops early (budget, error) leaves the frontier at the last
 * finished chunk; the rest is still searched without the index.
 */
@Injectable()
export class FindingSearchIndexer {
  private readonly logger = new Logger('FindingSearchIndexer');

  /** When the first tick deferred to a running ingestion was (none while not deferring). */
  private deferredSince: number | undefined;

  constructor(private readonly repository: FindingSearchRepository) {}

  /**
   * One tick of the periodic task: catchUp, unless a report is being ingested and the
   * indexer has not waited SEARCH_INDEX_MAX_DEFER_MS yet. Returns whether it indexed.
   */
  async tick(now = Date.now(), maxDeferMs = SEARCH_INDEX_MAX_DEFER_MS): Promise<boolean> {
    if (await this.repository.ingestionRunning()) {
      this.deferredSince ??= now;
      if (now - this.deferredSince < maxDeferMs) return false;
    }
    this.deferredSince = undefined;
    await this.catchUp();
    return true;
  }

  /** Indexes what is due; returns how many findings were read and whether it caught up. */
  async catchUp(
    budgetMs = SEARCH_INDEX_RUN_BUDGET_MS,
    chunk = SEARCH_INDEX_CHUNK,
  ): Promise<{ read: number; caughtUp: boolean }> {
    const started = Date.now();
    const from = await this.repository.frontier();
    const bound = await this.repository.safeBound();
    let after: SearchIndexKey | null = null;
    let read = 0;
    for (;;) {
      const step = await this.repository.indexChunk(from, after, bound, chunk);
      read += step.read;
      if (step.read < chunk) {
        await this.repository.advance(bound);
        break;
      }
      after = step.last;
      // Rows of the same instant after this one may still be unindexed: stop at that instant.
      if (after) await this.repository.advance(after.createdAt);
      if (Date.now() - started > budgetMs) {
        this.logger.log(`indexed ${read} findings, more to go`);
        return { read, caughtUp: false };
      }
    }
    if (read >= chunk) this.logger.log(`indexed ${read} findings`);
    return { read, caughtUp: true };
  }
}

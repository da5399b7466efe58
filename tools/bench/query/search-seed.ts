import { performance } from 'node:perf_hooks';
import type { DataSource } from 'typeorm';
import { FindingSearchIndexer } from '../../../apps/findings-service/src/modules/findings/search/finding-search-indexer.service';
import { FindingSearchRepository } from '../../../apps/findings-service/src/modules/findings/search/finding-search.repository';
import { SEED_FINDINGS_SQL } from '../support/seed-findings';

const SEEDED_DESCRIPTION = `'Seeded description of finding ' || g,`;

/**
 * The query bench's seed: SEED_FINDINGS_SQL with a description that reads like a scanner's
 * (`Seeded description of finding 77: input reaches src/module-77/file-3.ts unchecked`), so
 * that free-text search has a file path fragment to find (search covers title, description and
 * rule id, not `file_path`). The other columns are unchanged.
 */
export const QUERY_SEED_FINDINGS_SQL = ((): string => {
  if (!SEED_FINDINGS_SQL.includes(SEEDED_DESCRIPTION))
    throw new Error('tools/bench/support/seed-findings.ts changed: update search-seed.ts');
  return SEED_FINDINGS_SQL.replace(
    SEEDED_DESCRIPTION,
    `'Seeded description of finding ' || g || ': input reaches '
    || CASE WHEN g % 4 = 0 THEN 'lib/vendor/pkg-' || (g % 50) || '/index.js'
       ELSE 'src/module-' || (g % 200) || '/file-' || (g % 37) || '.ts' END || ' unchecked',`,
  );
})();

/**
 * Free-text search requests (the `search` filter and bare query terms), limit 50. Shares of the
 * 1 M seeded findings (g = 1..100 000 per product, 10 products) in the comments.
 */
export function searchCases(productId: string): Array<[label: string, path: string]> {
  const enc = encodeURIComponent;
  const list = '/api/v1/findings?';
  return [
    ['search=injection (title word, 20 %)', `${list}search=injection`],
    ['search=finding (every title, 100 %)', `${list}search=finding`],
    [
      'search=module-17/file-3 (path fragment, ~0.01 %)',
      `${list}search=${enc('module-17/file-3')}`,
    ],
    ['search=rule-217 (rule id fragment, 0.25 %)', `${list}search=rule-217`],
    ['search=finding 77777: (rare, 10 rows)', `${list}search=${enc('finding 77777:')}`],
    ['search=zqxj (no match)', `${list}search=zqxj`],
    [
      'q=injection severity:critical (bare term + field)',
      `${list}q=${enc('injection severity:critical')}`,
    ],
    ['q="module-17/file-3" (bare phrase, ~0.01 %)', `${list}q=${enc('"module-17/file-3"')}`],
    ['q=-secret status:new (negated bare term)', `${list}q=${enc('-secret status:new')}`],
    ['product_id=<one> & search=rule-217', `${list}product_id=${productId}&search=rule-217`],
  ];
}

/**
 * Runs the worker's search indexer (FindingSearchIndexer) until it has caught up with the
 * seeded findings, as the worker would after a migration on an existing installation, and
 * prints its rate; then VACUUM ANALYZE of the search tables (what autovacuum does later).
 */
export async function indexForSearch(ds: DataSource): Promise<void> {
  const indexer = new FindingSearchIndexer(new FindingSearchRepository(ds));
  const started = performance.now();
  let read = 0;
  for (;;) {
    const run = await indexer.catchUp(60_000);
    read += run.read;
    if (run.caughtUp) break;
  }
  const seconds = (performance.now() - started) / 1000;
  await ds.query('VACUUM ANALYZE finding_search');
  await ds.query('VACUUM ANALYZE finding_search_word');
  await ds.query('VACUUM ANALYZE finding_search_posting');
  console.log(
    `search index: ${read} findings in ${seconds.toFixed(1)} s (${Math.round(read / seconds)} findings/s, the worker's indexer, chunks of 5 000)`,
  );
}

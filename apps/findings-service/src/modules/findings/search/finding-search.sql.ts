/**
 * The documented semantics of free-text search (bare query terms and the `search` filter):
 * title, description or rule id contains the term, case-insensitively; `param` is the term's
 * containsPattern. Evaluated on the finding itself, without an index.
 */
export function fullTextSql(param: string): string {
  return `(f.title ILIKE ${param} ESCAPE '\\' OR f.description ILIKE ${param} ESCAPE '\\' OR f.rule_id ILIKE ${param} ESCAPE '\\')`;
}

/**
 * Free-text search through the `finding_search` table (docs/findings-service/findings-api.md#free-text-search).
 *
 * The result is exactly the documented one — `title`, `description` or `rule_id` ILIKE the
 * pattern, evaluated on the finding itself (fullTextSql) — and the index only narrows the
 * candidates: a finding whose title, description or rule id contains the term has a document
 * (`title \n description \n rule_id`) that contains it too, so it is among
 *   - the findings whose document matches (trigram GIN index), or
 *   - the findings not indexed yet: created at or after the frontier (the `(created_at, id)`
 *     index; every finding created before the frontier has its document, see
 *     finding-search-indexer.service.ts).
 * A document that matches across its line breaks is a candidate that the exact condition drops.
 * PostgreSQL then reads the index's candidates and fetches them by primary key (a cost that
 * grows with the number of matches). Only rare terms take this path (FindingSearchPlanner): a
 * frequent one is faster with the plain condition, which walks the list's sort index and stops
 * after `limit` matches.
 */
export function indexedFullTextSql(param: string): string {
  return `(${fullTextSql(param)} AND f.id IN (
    SELECT fs.finding_id FROM finding_search fs WHERE fs.document ILIKE ${param} ESCAPE '\\'
    UNION ALL
    SELECT fn.id FROM findings fn
      WHERE fn.created_at >= (SELECT st.frontier FROM finding_search_state st WHERE st.id = 1)))`;
}

/**
 * Whether the trigram index can narrow a search for `term`: pg_trgm extracts trigrams from
 * runs of letters and digits, so a term without three in a row (`ab`, `a-b`, `%`) would make the
 * index return every row; such terms keep the plain condition (fullTextSql).
 */
export function trigramSearchable(term: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(term);
}

/**
 * The search condition for `term` bound to `param` (its containsPattern): through the index
 * when FindingSearchPlanner chose it for this term, else the plain condition.
 */
export function fullTextSearchSql(
  param: string,
  term: string,
  indexed: ReadonlySet<string> | undefined,
): string {
  return indexed?.has(term) && trigramSearchable(term)
    ? indexedFullTextSql(param)
    : fullTextSql(param);
}

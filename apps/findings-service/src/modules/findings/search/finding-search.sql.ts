import type { PatternPiece } from './search-probe';

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
export function indexedFullTextSql(param: string, probe?: PatternPiece, frontier?: string): string {
  return `(${fullTextSql(param)} AND f.id IN (
    SELECT fs.finding_id FROM finding_search fs WHERE ${documentMatchSql(param, probe)}
    UNION ALL
    ${unindexedSql(frontier)}))`;
}

/** The ids of the distinct words that contain the pattern `param` (trigram index on the words). */
export function matchingWordIdsSql(param: string): string {
  return `ARRAY(SELECT sw.id FROM finding_search_word sw WHERE sw.word ILIKE ${param} ESCAPE '\\')`;
}

/** The frontier: every finding created before it is indexed (finding-search-indexer.service.ts). */
export const FRONTIER_SQL = `(SELECT st.frontier FROM finding_search_state st WHERE st.id = 1)`;

/** A frontier as FindingSearchPlanner reads it: UTC, microseconds (`to_char` ... `US"Z"`). */
const FRONTIER_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * The frontier in a statement: the value FindingSearchPlanner read for this request, as a
 * literal, else the subquery. PostgreSQL estimates `created_at >= (subquery)` at a third of the
 * table whatever the value, and then scans all of `findings` for the handful of rows past the
 * frontier (560-610 ms at 1 M, on every search through an index); with the value it reads the
 * index's upper end and takes the `(created_at, id)` index. A value read before the statement
 * is never after the frontier the statement would read (the frontier only moves forward), so
 * the candidates stay a superset of the matches.
 */
export function frontierSql(frontier?: string): string {
  return frontier && FRONTIER_TEXT.test(frontier) ? `'${frontier}'::timestamptz` : FRONTIER_SQL;
}

/** The findings not indexed yet: created at or after the frontier. */
function unindexedSql(frontier?: string): string {
  return `SELECT fn.id FROM findings fn
      WHERE fn.created_at >= ${frontierSql(frontier)}`;
}

/**
 * Free-text search through the word index, for a term without white space (wordSearchable):
 * such a term, when in a title, description or rule id, is inside one of its words (a run of
 * characters between ASCII white space, `finding_search_words`), so the candidates are the
 * findings holding a distinct word that contains it (`finding_search_word`, trigram index: the
 * term's common trigrams are rare among distinct words), through the postings
 * (`finding_search_posting`, B-tree led by the word id), plus the findings not indexed yet. The documented condition
 * is still checked on each candidate, as on the other paths.
 */
export function wordIndexedFullTextSql(param: string, frontier?: string): string {
  return `(${fullTextSql(param)} AND f.id IN (
    SELECT fp.finding_id FROM finding_search_posting fp WHERE fp.word_id = ANY(${matchingWordIdsSql(param)})
    UNION ALL
    ${unindexedSql(frontier)}))`;
}

/**
 * The characters that separate words (finding_search_words in migration 1795607100000: space,
 * tab, line feed, carriage return, form feed, vertical tab). ILIKE lowers character by
 * character and never turns another character into one of these, so a term without them that
 * a text contains lies inside one word of the text.
 */
const WORD_SEPARATOR = /[ \t\n\r\f\v]/;

/** Whether the word index can find `term`: no white space, three letters or digits in a row. */
export function wordSearchable(term: string): boolean {
  return !WORD_SEPARATOR.test(term) && trigramSearchable(term);
}

/**
 * The document matches the pattern `param`. With a probe (a piece of the pattern, see
 * FindingSearchPlanner), the index is read for `%piece%` only and the whole pattern is checked
 * on the candidates (`document || ''` keeps it out of the index scan): the trigrams of the
 * term's common words, whose posting lists hold most of the documents, are never read.
 */
function documentMatchSql(param: string, probe: PatternPiece | undefined): string {
  if (!probe) return `fs.document ILIKE ${param} ESCAPE '\\'`;
  if (!Number.isInteger(probe.start) || !Number.isInteger(probe.length))
    throw new Error('search probe: integer offsets expected');
  const piece = `('%' || substr(${param}, ${probe.start}, ${probe.length}) || '%')`;
  return `fs.document ILIKE ${piece} ESCAPE '\\' AND (fs.document || '') ILIKE ${param} ESCAPE '\\'`;
}

/**
 * Whether the trigram index can narrow a search for `term`: pg_trgm extracts trigrams from
 * runs of letters and digits, so a term without three in a row (`ab`, `a-b`, `%`) would make the
 * index return every row; such terms keep the plain condition (fullTextSql).
 */
export function trigramSearchable(term: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(term);
}

/** How FindingSearchPlanner chose to search a term through the index. */
export interface IndexedTerm {
  /** The piece of the term's pattern the index is read for; the whole pattern when absent. */
  probe?: PatternPiece;
  /** Through the word index (wordIndexedFullTextSql) instead of the documents' trigrams. */
  words?: boolean;
  /** The frontier FindingSearchPlanner read for this request (frontierSql). */
  frontier?: string;
}

/**
 * The search condition for `term` bound to `param` (its containsPattern): through the index
 * when FindingSearchPlanner chose it for this term, else the plain condition.
 */
export function fullTextSearchSql(
  param: string,
  term: string,
  indexed: ReadonlyMap<string, IndexedTerm> | undefined,
): string {
  const plan = indexed?.get(term);
  if (plan?.words && wordSearchable(term)) return wordIndexedFullTextSql(param, plan.frontier);
  return plan && trigramSearchable(term)
    ? indexedFullTextSql(param, plan.probe, plan.frontier)
    : fullTextSql(param);
}

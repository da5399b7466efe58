import type { FindingSelection } from '../list/finding-filters';
import type { QueryNode } from '../query';
import { frontierSql, matchingWordIdsSql, wordSearchable } from './finding-search.sql';

/**
 * A page of the list in `created_at` order driven by a rare term's ordered postings
 * (docs/findings-service/findings-api.md#free-text-search).
 *
 * The word path of a term (wordIndexedFullTextSql) finds its candidates, but PostgreSQL then
 * fetches every one of them by primary key and sorts them for a page: ~14 us each, 35 ms for
 * 2 500. `finding_search_posting` keeps each finding's `created_at` (the default sort key, never
 * updated) with the posting, so the candidates' keys come from the B-tree alone and are sorted
 * without touching a finding (a few hundred microseconds for thousands), and the statement
 * fetches findings in page order by primary key, one at a time (LATERAL, `OFFSET 0` keeps it
 * a nested loop), checking visibility, filters, the query and the documented match on each,
 * and stops when the page is full.
 */

/** The term that drives the page: one the planner sent through the words, ANDed with the rest. */
export function drivingSearchTerm(selection: FindingSelection, sort: string): string | undefined {
  const indexed = selection.indexedSearch;
  if (sort !== 'created_at' || !indexed) return undefined;
  const terms = [
    ...(selection.filters.search ? [selection.filters.search] : []),
    ...andedTextTerms(selection.query),
  ];
  return terms.find((term) => indexed.get(term)?.words === true && wordSearchable(term));
}

/** Positive free-text terms every match must contain (reached from the root through AND only). */
function andedTextTerms(node: QueryNode | undefined): string[] {
  if (!node) return [];
  if (node.type === 'and') return [...andedTextTerms(node.left), ...andedTextTerms(node.right)];
  return node.type === 'text' && !node.negated ? [node.text] : [];
}

/**
 * The selection without the driving term in its index choices: the statement's condition for it
 * becomes the plain documented one (fullTextSql), checked on each finding the driver yields.
 */
export function withoutDrivingTerm<T extends FindingSelection>(selection: T, term: string): T {
  const indexed = new Map(selection.indexedSearch);
  indexed.delete(term);
  return { ...selection, indexedSearch: indexed };
}

/**
 * The candidates' keys `(created_at, id)` in page order, each once: the postings of the words
 * that contain the pattern `param`, and the findings not indexed yet (created at or after the
 * frontier, as read for the request: `frontier`, see frontierSql); after the cursor when there is
 * one (`cursor` = its `(created_at, id)` parameters).
 * A superset of the term's matches: every finding whose title, description or rule id contains
 * it is indexed with the word that contains it, or is past the frontier.
 */
export function orderedCandidatesSql(
  param: string,
  order: 'asc' | 'desc',
  cursor: { value: string; id: string } | undefined,
  frontier?: string,
): string {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const cmp = order === 'asc' ? '>' : '<';
  const after = (columns: string): string =>
    cursor ? ` AND (${columns}) ${cmp} (${cursor.value}::timestamptz, ${cursor.id}::uuid)` : '';
  return `(SELECT DISTINCT k.created_at, k.id FROM (
      SELECT fp.created_at, fp.finding_id AS id FROM finding_search_posting fp
       WHERE fp.word_id = ANY(${matchingWordIdsSql(param)})${after('fp.created_at, fp.finding_id')}
      UNION ALL
      SELECT fn.created_at, fn.id FROM findings fn
       WHERE fn.created_at >= ${frontierSql(frontier)}${after('fn.created_at, fn.id')}
    ) k ORDER BY k.created_at ${dir}, k.id ${dir})`;
}

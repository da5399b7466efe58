import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { FindingSelection } from '../list/finding-filters';
import { containsPattern, type QueryNode } from '../query';
import { trigramSearchable, wordSearchable, type IndexedTerm } from './finding-search.sql';
import { patternPieces } from './search-probe';

/**
 * At most this share of the indexed findings (PostgreSQL's estimate) for a term to go through
 * the index. Above it the plain condition is faster: walking the sort index, a term matching a
 * share s of the findings needs about limit / s rows (0.3 %: ~17 000 rows for a page of 50,
 * a few ms), while the index path fetches every match by primary key and sorts them.
 */
export const INDEXED_SEARCH_MAX_SHARE = 0.003;

/** Below this many estimated matches the index path is always taken (small installations). */
export const INDEXED_SEARCH_MIN_ROWS = 2_000;

/**
 * A term matching more distinct words than this keeps the plain condition (its candidates
 * would be many, and the array of word ids long).
 */
export const WORD_ESTIMATE_MAX_WORDS = 2_000;

/** How long a term's choice (and the document count) is reused. */
export const SEARCH_CHOICE_TTL_MS = 60_000;

/**
 * How long a read of the indexer's frontier is reused. The frontier only moves forward (every
 * SEARCH_INDEX_EVERY_MS at most, later while reports are ingested), so an older value only adds
 * the findings created since as candidates, never loses a match; one statement (a round trip)
 * less for each indexed search within the second.
 */
export const SEARCH_FRONTIER_TTL_MS = 1_000;

/** Terms remembered at most (the memory is emptied when full). */
export const SEARCH_CHOICE_CACHE_SIZE = 1_000;

/** The positive free-text terms of a selection: the `search` filter and bare query terms. */
export function searchTerms(selection: Pick<FindingSelection, 'filters' | 'query'>): string[] {
  const terms = new Set<string>();
  if (selection.filters.search) terms.add(selection.filters.search);
  const walk = (node: QueryNode | undefined): void => {
    if (!node) return;
    if (node.type === 'and' || node.type === 'or') {
      walk(node.left);
      walk(node.right);
    } else if (node.type === 'text' && !node.negated) terms.add(node.text);
  };
  walk(selection.query);
  return [...terms];
}

/**
 * Chooses, per free-text term, between the search index and the plain condition
 * (finding-search.sql.ts), from PostgreSQL's own estimates of matches in `finding_search`
 * (`EXPLAIN`, ~0.3 ms each, run side by side: the planner samples the documents).
 * PostgreSQL cannot make this choice inside the list statement: with the index's candidates as
 * a semi-join it always reads them all (200 000 for a word in 20 % of the titles, seconds),
 * where walking the sort index stops after 51 rows.
 *
 * For a rare term it also picks the piece the index is read for: pg_trgm reads the posting list
 * of every trigram of the pattern, and the trigrams of a word most documents share (`finding`,
 * `src`) cost ~1 300 index pages at 1 M documents. When some pieces of the term are frequent
 * and others rare, the index is read for the rarest (longest among equals) and the whole
 * pattern is checked on its candidates; when all are rare (or all frequent) for the whole.
 */
@Injectable()
export class FindingSearchPlanner {
  /**
   * Choices of the last minute, by term (the estimates cost 1-10 ms of planning on a loaded
   * 2-core machine, and a user pages through the same term): a choice only picks the path, the
   * result is the same whichever it is, so a stale one costs time, never a finding.
   */
  private readonly choices = new Map<string, { at: number; plan: IndexedTerm | undefined }>();
  private total: { at: number; value: number } | undefined;
  private frontierRead: { at: number; value: Promise<string | undefined> } | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async indexedTerms(
    selection: Pick<FindingSelection, 'filters' | 'query'>,
  ): Promise<ReadonlyMap<string, IndexedTerm> | undefined> {
    const terms = searchTerms(selection).filter(trigramSearchable);
    if (terms.length === 0) return undefined;
    const now = Date.now();
    if (!this.total || now - this.total.at > SEARCH_CHOICE_TTL_MS)
      this.total = { at: now, value: await this.indexedCount() };
    const limit = Math.max(INDEXED_SEARCH_MIN_ROWS, this.total.value * INDEXED_SEARCH_MAX_SHARE);
    // Terms all known to keep the plain condition (a frequent word): no frontier to read, the
    // statement never uses it; one round trip less per request.
    if (terms.every((term) => this.knownPlain(term, now))) return new Map();
    const [frontier, ...plans] = await Promise.all([
      this.cachedFrontier(now),
      ...terms.map((term) => this.cachedPlan(term, limit, now)),
    ]);
    return new Map(
      terms.flatMap((term, i) => {
        const plan = plans[i];
        return plan ? [[term, { ...plan, frontier }] as const] : [];
      }),
    );
  }

  /** The frontier read within the last SEARCH_FRONTIER_TTL_MS (one read for concurrent callers). */
  private cachedFrontier(now: number): Promise<string | undefined> {
    const known = this.frontierRead;
    if (known && now - known.at <= SEARCH_FRONTIER_TTL_MS) return known.value;
    const value = this.frontier();
    const read = { at: now, value };
    this.frontierRead = read;
    value.catch(() => {
      if (this.frontierRead === read) this.frontierRead = undefined;
    });
    return value;
  }

  /**
   * The indexer's frontier now (frontierSql), UTC to the microsecond. A value read before the
   * statement is never after the frontier the statement would see, so the candidates stay a
   * superset of the matches; the older the value, the more findings past it a search reads
   * without the index (SEARCH_FRONTIER_TTL_MS bounds that).
   */
  private async frontier(): Promise<string | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT to_char(frontier AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS frontier
         FROM finding_search_state WHERE id = 1`,
    )) as { frontier: string | null }[];
    return rows[0]?.frontier ?? undefined;
  }

  /** Whether the term's remembered choice (still fresh) is the plain condition. */
  private knownPlain(term: string, now: number): boolean {
    const known = this.choices.get(term);
    return known !== undefined && now - known.at <= SEARCH_CHOICE_TTL_MS && !known.plan;
  }

  private async cachedPlan(
    term: string,
    limit: number,
    now: number,
  ): Promise<IndexedTerm | undefined> {
    const known = this.choices.get(term);
    if (known && now - known.at <= SEARCH_CHOICE_TTL_MS) return known.plan;
    const plan = await this.plan(term, limit);
    if (this.choices.size >= SEARCH_CHOICE_CACHE_SIZE) this.choices.clear();
    this.choices.set(term, { at: now, plan });
    return plan;
  }

  private async plan(term: string, limit: number): Promise<IndexedTerm | undefined> {
    const pattern = containsPattern(term);
    if (wordSearchable(term))
      return (await this.wordCount(pattern, limit)) > limit ? undefined : { words: true };
    const pieces = patternPieces(pattern);
    const [whole, ...estimates] = await Promise.all([
      this.estimate(pattern),
      ...(pieces.length > 1 ? pieces.map((p) => this.estimate(`%${p.text}%`)) : []),
    ]);
    if (whole > limit) return undefined;
    if (estimates.length === 0 || estimates.every((e) => e <= limit)) return {};
    if (estimates.every((e) => e > limit)) return {};
    let best = 0;
    for (let i = 1; i < pieces.length; i++) {
      const better =
        estimates[i] < estimates[best] ||
        (estimates[i] === estimates[best] && pieces[i].length > pieces[best].length);
      if (better) best = i;
    }
    return { probe: pieces[best] };
  }

  /** The planner's estimate of the documents matching the LIKE pattern. */
  private async estimate(pattern: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM finding_search fs WHERE fs.document ILIKE $1 ESCAPE '\\'`,
      [pattern],
    )) as { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[];
    return rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
  }

  /**
   * How many documents hold a word that contains the LIKE pattern, counted up to `limit + 1`:
   * the matching distinct words (trigram index on the words, 0.1-1 ms), then their postings
   * (`finding_search_posting`; a document holding two of the words counts twice: an upper bound). Counted rather than estimated: PostgreSQL's estimate for words outside
   * the statistics' most common elements is a flat guess per word (~0.09 % of the documents at
   * 1 M each, 7 045 for `module-17/file-3`'s 8 words, which hold 1 090), and the documents'
   * trigram estimate misjudges a term of common pieces. Bounded (at most `limit + 1` rows read,
   * a few ms) and remembered with the choice.
   */
  private async wordCount(pattern: string, limit: number): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT ARRAY(SELECT sw.id FROM finding_search_word sw WHERE sw.word ILIKE $1 ESCAPE '\\'
         LIMIT ${WORD_ESTIMATE_MAX_WORDS + 1}) AS ids`,
      [pattern],
    )) as { ids: number[] }[];
    const ids = rows[0].ids;
    if (ids.length === 0) return 0;
    if (ids.length > WORD_ESTIMATE_MAX_WORDS) return Number.POSITIVE_INFINITY;
    const counted = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM finding_search_posting fp WHERE fp.word_id = ANY($1::int[]) LIMIT $2) c`,
      [ids, Math.ceil(limit) + 1],
    )) as { n: number }[];
    return counted[0].n;
  }

  /** How many documents the statistics count (`reltuples`; -1 before the first analyze). */
  private async indexedCount(): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'finding_search'::regclass`,
    )) as { n: number }[];
    return Math.max(0, rows[0]?.n ?? 0);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A position in `(created_at, id)` order; `createdAt` as PostgreSQL text (microseconds kept). */
export interface SearchIndexKey {
  createdAt: string;
  id: string;
}

const NO_ID = '00000000-0000-0000-0000-000000000000';

/** The findings of a chunk and their documents ($1 created_at and $2 id after, $3 bound, $4 limit). */
const CHUNK_SQL = `SELECT f.id, f.created_at,
    finding_search_document(f.title, f.description, f.rule_id) AS document
  FROM findings f
  WHERE (f.created_at, f.id) > ($1::timestamptz, $2::uuid) AND f.created_at < $3::timestamptz
  ORDER BY f.created_at, f.id LIMIT $4`;

/**
 * The search indexer's statements (finding_search, finding_search_word, finding_search_state;
 * the only writer besides the trigger).
 */
@Injectable()
export class FindingSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The frontier: every finding created before it has its document. */
  async frontier(): Promise<string> {
    const rows = (await this.dataSource.query(
      `SELECT frontier::text AS frontier FROM finding_search_state WHERE id = 1`,
    )) as { frontier: string }[];
    return rows[0].frontier;
  }

  /**
   * A time before which every finding that will ever be committed is visible to the next
   * statement: `now()`, or the start of the oldest transaction in progress in this database if
   * earlier. A finding's `created_at` is its inserting transaction's `now()` (its start): a
   * transaction that started before this bound has ended by the time this statement ran (else
   * it would be in progress and the bound no later than its start), so the next statement's
   * snapshot sees its rows. Sessions of other database roles show no `xact_start` to a role
   * without `pg_read_all_stats`: the service's replicas share one role.
   */
  async safeBound(): Promise<string> {
    const rows = (await this.dataSource.query(
      `SELECT LEAST(now(), min(xact_start))::text AS bound FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    )) as { bound: string }[];
    return rows[0].bound;
  }

  /**
   * Writes the documents, word ids and ordered postings (`finding_search_posting`, with each
   * finding's `created_at`) of up to `limit` findings after `after` (or from `from`) and created
   * before `before`, in `(created_at, id)` order, set-based, in two statements: the chunk's new
   * words, then its rows and their postings (a statement sees the words that the first one and
   * other transactions committed). Rows already there are kept (idempotent: another replica or
   * the trigger may have written them) unless written before the word index (`word_ids` NULL).
   * A row whose words are not all there yet (its text changed between the two statements) is
   * not written and the chunk is done again. Returns how many findings were read and the last
   * one's key.
   */
  async indexChunk(
    from: string,
    after: SearchIndexKey | null,
    before: string,
    limit: number,
  ): Promise<{ read: number; last: SearchIndexKey | null }> {
    const params = [after?.createdAt ?? from, after?.id ?? NO_ID, before, limit];
    for (let attempt = 1; ; attempt++) {
      await this.dataSource.query(
        `INSERT INTO finding_search_word (word)
         SELECT DISTINCT w.word FROM (${CHUNK_SQL}) b,
           finding_search_words(b.document) AS w(word)
         ON CONFLICT (md5(word)) DO NOTHING`,
        params,
      );
      const rows = (await this.dataSource.query(
        `WITH batch AS MATERIALIZED (${CHUNK_SQL}),
         tokens AS MATERIALIZED (
           SELECT b.id, w.word FROM batch b, finding_search_words(b.document) AS w(word)
         ), words AS MATERIALIZED (
           SELECT d.word, s.id FROM (SELECT DISTINCT word FROM tokens) d
           LEFT JOIN LATERAL (
             SELECT sw.id FROM finding_search_word sw
             WHERE md5(sw.word) = md5(d.word) AND sw.word = d.word
           ) s ON true
         ), ids AS (
           SELECT t.id, array_agg(w.id) FILTER (WHERE w.id IS NOT NULL) AS word_ids,
             count(*) FILTER (WHERE w.id IS NULL) AS missing
           FROM tokens t JOIN words w ON w.word = t.word GROUP BY t.id
         ), chunk AS (
           SELECT b.id, b.created_at, b.document, coalesce(i.word_ids, '{}') AS word_ids,
             coalesce(i.missing, 0) AS missing
           FROM batch b LEFT JOIN ids i ON i.id = b.id
         ), written AS (
           INSERT INTO finding_search (finding_id, document, word_ids)
           SELECT id, document, word_ids FROM chunk WHERE missing = 0
           ON CONFLICT (finding_id) DO UPDATE
             SET document = EXCLUDED.document, word_ids = EXCLUDED.word_ids
             WHERE finding_search.word_ids IS NULL
           RETURNING finding_id, word_ids
         ), posted AS (
           INSERT INTO finding_search_posting (word_id, created_at, finding_id)
           SELECT u.id, c.created_at, c.id FROM written w
             JOIN chunk c ON c.id = w.finding_id, unnest(w.word_ids) AS u(id)
           ORDER BY 1, 2, 3
           ON CONFLICT DO NOTHING
         )
         SELECT count(*)::int AS read, count(*) FILTER (WHERE missing > 0)::int AS missing,
           (SELECT b.created_at::text FROM batch b ORDER BY b.created_at DESC, b.id DESC LIMIT 1)
             AS created_at,
           (SELECT b.id FROM batch b ORDER BY b.created_at DESC, b.id DESC LIMIT 1) AS id
         FROM chunk`,
        params,
      )) as { read: number; missing: number; created_at: string | null; id: string | null }[];
      const row = rows[0];
      if (row.missing > 0 && attempt < 5) continue;
      if (row.missing > 0) throw new Error('search index: words keep changing, chunk not indexed');
      return {
        read: row.read,
        last: row.created_at && row.id ? { createdAt: row.created_at, id: row.id } : null,
      };
    }
  }

  /** Moves the frontier forward to `to` (never back: a slower replica cannot undo progress). */
  async advance(to: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE finding_search_state SET frontier = GREATEST(frontier, $1::timestamptz),
        updated_at = now() WHERE id = 1`,
      [to],
    );
  }

  /** Whether a report is being ingested (started, not finished) anywhere. */
  async ingestionRunning(): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM reports WHERE status = 'pending' AND started_at IS NOT NULL)
         AS running`,
    )) as { running: boolean }[];
    return rows[0].running;
  }

  /** Findings created at or after the frontier (what search reads without the index). */
  async unindexedCount(): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM findings
        WHERE created_at >= (SELECT frontier FROM finding_search_state WHERE id = 1)`,
    )) as { n: number }[];
    return rows[0].n;
  }
}

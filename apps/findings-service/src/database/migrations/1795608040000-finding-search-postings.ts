import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ordered postings of the word index (issue 34, item 4;
 * docs/findings-service/findings-api.md#free-text-search).
 *
 * `finding_search_posting` holds one row per (word, finding) with the finding's `created_at`,
 * the key of the list's default order (created_at DESC, id): a B-tree on
 * (word_id, created_at, finding_id) returns a word's findings in list order from the index
 * alone, so a page of a rare term reads its candidates' keys in order and fetches findings by
 * primary key only until the page is full, instead of fetching every match and sorting. The
 * key is stable: `created_at` is never updated. The table replaces the GIN index on
 * `finding_search.word_ids` (dropped here; the column stays: the trigger reads a finding's old
 * word ids from it to remove their postings when its text changes).
 *
 * Written by the search indexer with the rows it writes to `finding_search`, by the trigger (a
 * changed text's old postings removed, the new ones written) and here for the rows indexed
 * already (one set-based statement). Not written by ingestion's statements. No foreign key
 * (a check and a cascade per row): a deleted finding's postings stay behind and join no finding.
 */
export class FindingSearchPostings1795608040000 implements MigrationInterface {
  name = 'FindingSearchPostings1795608040000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "finding_search_posting" ("word_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finding_id" uuid NOT NULL, CONSTRAINT "PK_finding_search_posting" PRIMARY KEY ("word_id", "created_at", "finding_id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "finding_search_posting" ("word_id", "created_at", "finding_id")
        SELECT DISTINCT w.id, f.created_at, f.id FROM finding_search fs
          JOIN findings f ON f.id = fs.finding_id, unnest(fs.word_ids) AS w(id)
        ON CONFLICT DO NOTHING`,
    );
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_finding_search_word_ids"`);
    // The trigger: the finding's new words, its old postings out, its row, its new postings.
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION finding_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        doc text := finding_search_document(NEW.title, NEW.description, NEW.rule_id);
        old_ids integer[];
        new_ids integer[];
      BEGIN
        INSERT INTO finding_search_word (word) SELECT w FROM finding_search_words(doc) AS w
          ON CONFLICT (md5(word)) DO NOTHING;
        SELECT fs.word_ids INTO old_ids FROM finding_search fs WHERE fs.finding_id = NEW.id;
        new_ids := ARRAY(
          SELECT s.id FROM finding_search_words(doc) AS w, LATERAL (
            SELECT sw.id FROM finding_search_word sw WHERE md5(sw.word) = md5(w) AND sw.word = w
          ) s);
        DELETE FROM finding_search_posting p
          WHERE p.word_id = ANY(old_ids) AND p.word_id <> ALL(new_ids)
            AND p.created_at = NEW.created_at AND p.finding_id = NEW.id;
        INSERT INTO finding_search (finding_id, document, word_ids)
          VALUES (NEW.id, doc, new_ids)
          ON CONFLICT (finding_id) DO UPDATE
            SET document = EXCLUDED.document, word_ids = EXCLUDED.word_ids;
        INSERT INTO finding_search_posting (word_id, created_at, finding_id)
          SELECT DISTINCT u.id, NEW.created_at, NEW.id FROM unnest(new_ids) AS u(id)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations');
  }
}

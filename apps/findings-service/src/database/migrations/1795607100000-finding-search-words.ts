import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Word index of free-text search (issue 34, item 4; docs/findings-service/findings-api.md#free-text-search).
 *
 * `finding_search_word` holds each distinct word of the documents (a run of characters between
 * ASCII white space: finding_search_words) under a trigram GIN index, and `finding_search.word_ids`
 * the ids of a finding's words under a GIN index (the postings). A term without white space that
 * is in a title, description or rule id is inside one of its words, so the findings holding the
 * words that contain it are its candidates: the common trigrams of such a term (`rule-`,
 * `/file-`) are rare among distinct words. Words are unique by md5 (a btree cannot hold a very
 * long word; the ids are looked up by md5 and text).
 *
 * The frontier goes back to `-infinity`: the indexer fills `word_ids` of the existing documents
 * (`finding_search_word_ids IS NULL` rows are rewritten) and search runs without the index until
 * it has caught up, as after the first migration. The trigger writes the words too.
 */
export class FindingSearchWords1795607100000 implements MigrationInterface {
  name = 'FindingSearchWords1795607100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION finding_search_words(document text) RETURNS SETOF text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 16
        AS $$ SELECT DISTINCT w FROM string_to_table(translate(document, E'\\t\\n\\r\\f\\x0B', '     '), ' ') AS w WHERE w <> '' $$`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_search_word" ("id" SERIAL NOT NULL, "word" text NOT NULL, CONSTRAINT "PK_finding_search_word" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_finding_search_word_md5" ON "finding_search_word" (md5("word"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_search_word_trgm" ON "finding_search_word" USING gin ("word" gin_trgm_ops)`,
    );
    await queryRunner.query(`ALTER TABLE "finding_search" ADD "word_ids" integer array`);
    await queryRunner.query(
      `CREATE INDEX "ix_finding_search_word_ids" ON "finding_search" USING gin ("word_ids")`,
    );
    await queryRunner.query(`UPDATE "finding_search_state" SET "frontier" = '-infinity'`);
    // The trigger's function: the finding's new words first (each statement of a plpgsql
    // function sees what other transactions committed meanwhile), then its row. Each word's id
    // is looked up by md5 (LATERAL: an index probe per word, never a scan of the words).
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION finding_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE doc text := finding_search_document(NEW.title, NEW.description, NEW.rule_id);
      BEGIN
        INSERT INTO finding_search_word (word) SELECT w FROM finding_search_words(doc) AS w
          ON CONFLICT (md5(word)) DO NOTHING;
        INSERT INTO finding_search (finding_id, document, word_ids)
          VALUES (NEW.id, doc, ARRAY(
            SELECT s.id FROM finding_search_words(doc) AS w, LATERAL (
              SELECT sw.id FROM finding_search_word sw WHERE md5(sw.word) = md5(w) AND sw.word = w
            ) s))
          ON CONFLICT (finding_id) DO UPDATE
            SET document = EXCLUDED.document, word_ids = EXCLUDED.word_ids;
        RETURN NULL;
      END $$`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations');
  }
}

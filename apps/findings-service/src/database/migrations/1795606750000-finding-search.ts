import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Free-text search index (issue 34, item 4; docs/findings-service/findings-api.md#free-text-search).
 *
 * `finding_search` holds each finding's searchable text (title, description, rule id, one line
 * each: finding_search_document) under a trigram GIN index; it is filled set-based and
 * asynchronously by the worker's `finding-search-index` task, never by ingestion's statements,
 * so the ~6x write cost of a trigram index stays off the ingestion path. `finding_search_state`
 * holds the frontier: every finding created before it has its row. It starts at `-infinity`:
 * until the task has caught up, search covers every finding by the unindexed fallback (the
 * statement as before this migration), so nothing is missed on an existing installation.
 *
 * Title, description and rule id never change after insert today (ingestion's upsert leaves
 * them alone); should a statement ever change one, the trigger rewrites that finding's row in
 * the same transaction. It fires only for statements that name one of the three columns (an
 * `UPDATE OF` trigger): ingestion's statements never do. A deleted finding's row goes with it
 * (foreign key, cascade).
 */
export class FindingSearch1795606750000 implements MigrationInterface {
  name = 'FindingSearch1795606750000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE FUNCTION finding_search_document(title text, description text, rule_id text)
        RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT coalesce(title, '') || E'\\n' || coalesce(description, '') || E'\\n' || coalesce(rule_id, '') $$`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_search" ("finding_id" uuid NOT NULL, "document" text NOT NULL, CONSTRAINT "PK_finding_search" PRIMARY KEY ("finding_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "finding_search" ADD CONSTRAINT "FK_finding_search_finding" FOREIGN KEY ("finding_id") REFERENCES "findings"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_search_document_trgm" ON "finding_search" USING gin ("document" gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_search_state" ("id" smallint NOT NULL, "frontier" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_finding_search_state" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "finding_search_state" ("id", "frontier") VALUES (1, '-infinity')`,
    );
    await queryRunner.query(
      `CREATE FUNCTION finding_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO finding_search (finding_id, document)
          VALUES (NEW.id, finding_search_document(NEW.title, NEW.description, NEW.rule_id))
          ON CONFLICT (finding_id) DO UPDATE SET document = EXCLUDED.document;
        RETURN NULL;
      END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "tr_findings_search_refresh" AFTER UPDATE OF "title", "description", "rule_id"
        ON "findings" FOR EACH ROW
        WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description
          OR OLD.rule_id IS DISTINCT FROM NEW.rule_id)
        EXECUTE FUNCTION finding_search_refresh()`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations');
  }
}

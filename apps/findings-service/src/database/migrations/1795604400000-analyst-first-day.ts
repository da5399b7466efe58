import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The analyst UI's first day (issue 25, docs/findings-service/findings-api.md):
 * - `findings.rule_title`: the rule's short title for lists, written by ingestion (nullable,
 *   no default: adding it rewrites nothing; findings stored before show `rule_name` or
 *   `rule_id` until their next sighting fills it);
 * - `finding_comments`: a finding's discussion thread, owned by the findings module (no foreign
 *   key to `findings`: the module deletes a finding's comments with it), its author set null
 *   when the user is deleted.
 */
export class AnalystFirstDay1795604400000 implements MigrationInterface {
  name = 'AnalystFirstDay1795604400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "findings" ADD "rule_title" text`);
    await queryRunner.query(
      `CREATE TABLE "finding_comments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "finding_id" uuid NOT NULL, "author_id" uuid, "author_label" text NOT NULL, "body" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "edited_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_finding_comments_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_comments_author_id" ON "finding_comments" ("author_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_comments_finding_id_created_at" ON "finding_comments" ("finding_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "finding_comments" ADD CONSTRAINT "FK_finding_comments_author_id" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

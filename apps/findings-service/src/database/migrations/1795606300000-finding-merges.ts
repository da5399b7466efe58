import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Manual merge of findings (issue 28, docs/findings-service/merge.md): a merged finding points
 * to its survivor (`merged_into_id`, `merged_at`); two small partial indexes find a survivor's
 * members and tell ingestion cheaply whether a product has merged findings at all; the history
 * (`finding_merges`) keeps what an exact unmerge needs. Ingestion never updates the new columns,
 * so its re-sighting updates stay HOT.
 */
export class FindingMerges1795606300000 implements MigrationInterface {
  name = 'FindingMerges1795606300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "findings" ADD "merged_into_id" uuid`);
    await queryRunner.query(`ALTER TABLE "findings" ADD "merged_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "ix_findings_merged_into_id" ON "findings" ("merged_into_id") WHERE "merged_into_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_merged_product_id" ON "findings" ("product_id") WHERE "merged_into_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_merges" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "merge_id" uuid NOT NULL, "survivor_id" uuid NOT NULL, "member_id" uuid NOT NULL, "product_id" uuid NOT NULL, "project_id" uuid NOT NULL, "survivor_sources_before" jsonb NOT NULL, "member_sources" jsonb NOT NULL, "merged_by_type" character varying(16) NOT NULL, "merged_by_id" uuid, "merged_by_label" text, "merged_at" TIMESTAMP WITH TIME ZONE NOT NULL, "unmerged_at" TIMESTAMP WITH TIME ZONE, "unmerged_by_id" uuid, "unmerged_by_label" text, CONSTRAINT "PK_finding_merges_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_merges_member_id" ON "finding_merges" ("member_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_merges_survivor_id" ON "finding_merges" ("survivor_id") `,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

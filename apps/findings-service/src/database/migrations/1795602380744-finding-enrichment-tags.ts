import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Enrichment tags per enricher (issue 17, item 5; docs/plugins/enrichment.md): each enricher
 * replaces only its own tags on a finding; findings.enrichment_tags keeps their union.
 */
export class FindingEnrichmentTags1795602380744 implements MigrationInterface {
  name = 'FindingEnrichmentTags1795602380744';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "finding_enrichment_tags" ("finding_id" uuid NOT NULL, "installed_plugin_id" uuid NOT NULL, "key" character varying(64) NOT NULL, "value" text NOT NULL, "enriched_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_finding_enrichment_tags" PRIMARY KEY ("finding_id", "installed_plugin_id", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_enrichment_tags_plugin" ON "finding_enrichment_tags" ("installed_plugin_id") `,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations');
  }
}

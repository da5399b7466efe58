import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Finding sources (issue 17, item 6; docs/plugins/finding-sources.md): the nodes each source
 * reported last, which node each finding was seen on, and the last poll of each source.
 */
export class FindingSources1795603002150 implements MigrationInterface {
  name = 'FindingSources1795603002150';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "finding_source_nodes" ("installed_plugin_id" uuid NOT NULL, "node_key" character varying(200) NOT NULL, "project_id" uuid NOT NULL, "product_id" uuid, "hostname" text, "ip" text, "os" text, "attributes" jsonb NOT NULL DEFAULT '{}', "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_finding_source_nodes" PRIMARY KEY ("installed_plugin_id", "node_key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_source_links" ("finding_id" uuid NOT NULL, "installed_plugin_id" uuid NOT NULL, "node_key" character varying(200) NOT NULL, CONSTRAINT "PK_finding_source_links" PRIMARY KEY ("finding_id", "installed_plugin_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_source_links_node" ON "finding_source_links" ("installed_plugin_id", "node_key") `,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_source_syncs" ("installed_plugin_id" uuid NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE NOT NULL, "outcome" character varying(16) NOT NULL, "trigger" character varying(16) NOT NULL, "error_code" character varying(64), "error_message" text, "nodes" integer NOT NULL DEFAULT '0', "findings_seen" integer NOT NULL DEFAULT '0', "findings_created" integer NOT NULL DEFAULT '0', "findings_closed" integer NOT NULL DEFAULT '0', "nodes_vanished" integer NOT NULL DEFAULT '0', "reconciliation_skipped" boolean NOT NULL DEFAULT false, "last_success_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_finding_source_syncs" PRIMARY KEY ("installed_plugin_id"))`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

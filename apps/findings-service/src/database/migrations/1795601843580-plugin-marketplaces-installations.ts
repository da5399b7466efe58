import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The plugin platform's administration (issue 17, items 1-3; docs/plugins/installation.md):
 * catalog sources (marketplaces), installed plugins with their settings (secrets sealed),
 * artifact bytes by digest, and the plugin administration audit log.
 */
export class PluginMarketplacesInstallations1795601843580 implements MigrationInterface {
  name = 'PluginMarketplacesInstallations1795601843580';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "plugin_sources" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(200) NOT NULL, "catalog_url" text NOT NULL, "public_key" text, "is_active" boolean NOT NULL DEFAULT true, "allows_native" boolean NOT NULL DEFAULT false, "official" boolean NOT NULL DEFAULT false, "revoked_digests" text array NOT NULL DEFAULT '{}', "catalog_fetched_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_plugin_sources_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_plugin_sources_official" ON "plugin_sources" ("official") WHERE "official"`,
    );
    await queryRunner.query(
      `CREATE TABLE "installed_plugins" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "source_type" character varying(16) NOT NULL, "marketplace_id" uuid, "catalog_plugin_id" character varying(100) NOT NULL, "runtime" character varying(8) NOT NULL, "enabled" boolean NOT NULL DEFAULT false, "version" character varying(64) NOT NULL, "artifact_sha256" character(64) NOT NULL, "manifest" bytea NOT NULL, "signature" text, "capabilities" text array NOT NULL, "settings" jsonb NOT NULL DEFAULT '{}', "secret_settings" text, "pending_version" jsonb, "installed_by_user_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_installed_plugins_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_installed_plugins_catalog_plugin_id" ON "installed_plugins" ("catalog_plugin_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "installed_plugins" ADD CONSTRAINT "FK_installed_plugins_marketplace_id" FOREIGN KEY ("marketplace_id") REFERENCES "plugin_sources"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "plugin_artifacts" ("digest" character(64) NOT NULL, "content" bytea NOT NULL, "size" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_plugin_artifacts_digest" PRIMARY KEY ("digest"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "plugin_audit_events" ("id" BIGSERIAL NOT NULL, "actor_type" character varying(16) NOT NULL, "actor_id" uuid, "actor_label" text, "action" character varying(64) NOT NULL, "marketplace_id" uuid, "installed_plugin_id" uuid, "details" jsonb NOT NULL DEFAULT '{}', "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_plugin_audit_events_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_plugin_audit_events_at" ON "plugin_audit_events" ("at")`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

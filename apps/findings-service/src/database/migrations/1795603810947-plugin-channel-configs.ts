import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Channel plugins per project (issue 17, item 4; docs/plugins/channels.md): the projects'
 * channel settings, and the core's pre-0.33 channel settings the backfill moves from.
 */
export class PluginChannelConfigs1795603810947 implements MigrationInterface {
  name = 'PluginChannelConfigs1795603810947';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "project_channel_configs" ("project_id" uuid NOT NULL, "installed_plugin_id" uuid NOT NULL, "settings" jsonb NOT NULL DEFAULT '{}', "secret_settings" text, "origin" character varying(16) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_project_channel_configs" PRIMARY KEY ("project_id", "installed_plugin_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "legacy_channel_settings" ("project_id" uuid NOT NULL, "channel" character varying(32) NOT NULL, "settings" jsonb NOT NULL DEFAULT '{}', "secret_settings" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_legacy_channel_settings" PRIMARY KEY ("project_id", "channel"))`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Networks: Wi-Fi and wired 802.1X profiles handed to agents. The partial unique index keeps
 * at most one wired network active (not soft-deleted) at once.
 */
export class Networks1795700500000 implements MigrationInterface {
  name = 'Networks1795700500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "networks" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "kind" character varying(8) NOT NULL, "name" character varying(100) NOT NULL, "ssid" character varying(32), "hidden" boolean NOT NULL DEFAULT false, "eap_method" character varying(32) NOT NULL, "purpose" character varying(16) NOT NULL DEFAULT 'wifi', "radius_server_names" text array NOT NULL DEFAULT '{}', "agent_profile_disabled" boolean NOT NULL DEFAULT false, "macos_agent_profile_disabled" boolean NOT NULL DEFAULT false, "disabled_at" TIMESTAMP WITH TIME ZONE, "created_by" character varying(320) NOT NULL, "updated_by" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_networks_id" PRIMARY KEY ("id"), CONSTRAINT "CHK_networks_kind" CHECK ("kind" IN ('wifi', 'wired')))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_networks_one_active_wired" ON "networks" ("kind") WHERE "kind" = 'wired' AND "disabled_at" IS NULL`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

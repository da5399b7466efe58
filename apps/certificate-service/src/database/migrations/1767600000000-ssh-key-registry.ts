import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SSH key registry (raw keys registered by devices), the revocation feed for session
 * watchers, principal aliases (shared accounts) with their members, and key-holder tokens.
 */
export class SshKeyRegistry1767600000000 implements MigrationInterface {
  name = 'SshKeyRegistry1767600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "ssh_keys" ("id" uuid NOT NULL, "device_id" uuid NOT NULL, "owner" character varying(320), "key_type" character varying(64) NOT NULL, "public_key" bytea NOT NULL, "fingerprint" character varying(64) NOT NULL, "comment" character varying(255), "state" character varying(16) NOT NULL, "approval" character varying(8), "binding_verdict" character varying(16) NOT NULL, "binding_detail" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "approved_at" TIMESTAMP WITH TIME ZONE, "approved_by" character varying(320), "rejected_at" TIMESTAMP WITH TIME ZONE, "rejected_by" character varying(320), "revoked_at" TIMESTAMP WITH TIME ZONE, "revoked_by" character varying(320), "status_reason" character varying(255), CONSTRAINT "CHK_ssh_keys_binding_verdict" CHECK ("binding_verdict" IN ('not_checked','match','contradiction','unverifiable')), CONSTRAINT "CHK_ssh_keys_approval" CHECK ("approval" IS NULL OR "approval" IN ('manual','auto')), CONSTRAINT "CHK_ssh_keys_state" CHECK ("state" IN ('pending','active','revoked','rejected')), CONSTRAINT "PK_8d68194272e979ab2d77700b1a4" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_527eb97b51b1215ff70cf73064" ON "ssh_keys" ("device_id")`);
    await q.query(`CREATE INDEX "IDX_e1695a85d1e6d3bd5161e578d9" ON "ssh_keys" ("owner", "state")`);
    await q.query(
      `CREATE INDEX "IDX_9bf78f6d85d0951eeae5398324" ON "ssh_keys" ("state", "created_at")`,
    );
    await q.query(`CREATE INDEX "IDX_30015cc54f4480c3cfbf8ce0e7" ON "ssh_keys" ("fingerprint")`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_ssh_keys_live_fingerprint" ON "ssh_keys" ("fingerprint") WHERE "state" IN ('pending','active')`,
    );
    await q.query(
      `CREATE TABLE "ssh_revocations" ("id" BIGSERIAL NOT NULL, "kind" character varying(16) NOT NULL, "ssh_key_id" uuid, "fingerprint" character varying(64), "certificate_serial" character varying(20), "certificate_key_id" character varying(255), "device_id" uuid, "owner" character varying(320), "principals" text array NOT NULL DEFAULT '{}', "reason" character varying(255), "revoked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_ssh_revocations_kind" CHECK ("kind" IN ('key','certificate')), CONSTRAINT "PK_afa0969a321d28cc297fa54a7e2" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_f13ab7b5963d2ca4a64d7e81d7" ON "ssh_revocations" ("ssh_key_id")`,
    );
    await q.query(
      `CREATE TABLE "principal_aliases" ("name" character varying(32) NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "created_by" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0c6d5c8d7d636036f4906841de4" PRIMARY KEY ("name"))`,
    );
    await q.query(
      `CREATE TABLE "principal_alias_members" ("alias" character varying(32) NOT NULL, "member" character varying(320) NOT NULL, "added_by" character varying(320) NOT NULL, "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d710fc1313f35d1173710355eb2" PRIMARY KEY ("alias", "member"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_35191be7a937ac4aa8eefd4f0a" ON "principal_alias_members" ("member")`,
    );
    await q.query(
      `ALTER TABLE "principal_alias_members" ADD CONSTRAINT "FK_d596b7ea91dc2bb2640a1a4ee20" FOREIGN KEY ("alias") REFERENCES "principal_aliases"("name") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "keyholder_tokens" ("id" uuid NOT NULL, "name" character varying(200) NOT NULL, "token_hash" character varying(64) NOT NULL, "token_prefix" character varying(16) NOT NULL, "principals" text array, "created_by" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, "revoked_by" character varying(320), CONSTRAINT "PK_7a04e70210503508e832a8b9dc9" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "IDX_0f20da53605993ea2273121e0b" ON "keyholder_tokens" ("token_hash")`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

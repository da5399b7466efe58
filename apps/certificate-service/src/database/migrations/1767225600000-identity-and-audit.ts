import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users, roles, refresh tokens, service accounts and the audit log. */
export class IdentityAndAudit1767225600000 implements MigrationInterface {
  name = 'IdentityAndAudit1767225600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "users" ("email" character varying(320) NOT NULL, "password_hash" text, "enabled" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_login_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_97672ac88f789774dd47f7c8be3" PRIMARY KEY ("email"))`,
    );
    await q.query(
      `CREATE TABLE "user_roles" ("email" character varying(320) NOT NULL, "role" character varying(32) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_084ebb9e2e0f39fcb0be98ba974" PRIMARY KEY ("email", "role"))`,
    );
    await q.query(
      `ALTER TABLE "user_roles" ADD CONSTRAINT "FK_fb8c5b62ab5a7a949b36664e19a" FOREIGN KEY ("email") REFERENCES "users"("email") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "refresh_tokens" ("id" uuid NOT NULL, "family_id" uuid NOT NULL, "email" character varying(320) NOT NULL, "token_hash" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7d8bee0204106019488c4c50ffa" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_d5e27da0cd39bc3bb2811fc8ba" ON "refresh_tokens" ("family_id")`,
    );
    await q.query(`CREATE INDEX "IDX_fc1b173673b534a039b2fdad8c" ON "refresh_tokens" ("email")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_a7838d2ba25be1342091b6695f" ON "refresh_tokens" ("token_hash")`,
    );
    await q.query(
      `ALTER TABLE "refresh_tokens" ADD CONSTRAINT "FK_fc1b173673b534a039b2fdad8c9" FOREIGN KEY ("email") REFERENCES "users"("email") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "service_accounts" ("id" uuid NOT NULL, "name" character varying(200) NOT NULL, "token_hash" character varying(64) NOT NULL, "token_prefix" character varying(16) NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "expires_in_days" integer NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE, "allowed_purposes" text array NOT NULL, "created_by" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_e2fb216fdc1db94c5e4da7d88fa" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "IDX_c3fdfa2477686cab20dec58367" ON "service_accounts" ("token_hash")`,
    );
    await q.query(
      `CREATE TABLE "audit_log" ("id" BIGSERIAL NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "action" character varying(64) NOT NULL, "actor" character varying(320) NOT NULL, "actor_kind" character varying(32) NOT NULL, "service_account_id" uuid, "target" character varying(512), "details" jsonb NOT NULL, CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_ba27cef5b8b2b1a756e06ebcc5" ON "audit_log" ("at")`);
    await q.query(`CREATE INDEX "IDX_b24e98ef90e2b356263d4487e4" ON "audit_log" ("actor")`);
    await q.query(`CREATE INDEX "IDX_a6b8adfa094785bf8ed30f2688" ON "audit_log" ("action", "at")`);
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The built-in CA, issued certificates, the CRL store, and the licence: usage ledger
 * (append-only, SHA-256 chained), slots in use and the deployment instance key.
 */
export class IssuanceAndLicense1767484800000 implements MigrationInterface {
  name = 'IssuanceAndLicense1767484800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "ca_material" ("id" smallint NOT NULL, "format_version" smallint NOT NULL, "root_certificate_der" bytea NOT NULL, "root_encrypted_key" text NOT NULL, "issuing_certificate_der" bytea NOT NULL, "issuing_encrypted_key" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_ca_material_singleton" CHECK ("id" = 1), CONSTRAINT "PK_90cb43360cc2450fd5fdb734567" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "certificates" ("serial" character varying(40) NOT NULL, "request_id" uuid NOT NULL, "device_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "subject" character varying(255) NOT NULL, "user_identity" character varying(320), "not_before" TIMESTAMP WITH TIME ZONE NOT NULL, "not_after" TIMESTAMP WITH TIME ZONE NOT NULL, "der" bytea NOT NULL, "status" character varying(8) NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "revocation_reason" character varying(32), "issuer_kind" character varying(32) NOT NULL, "key_protection" character varying(16) NOT NULL DEFAULT 'none', "superseded_at" TIMESTAMP WITH TIME ZONE, "superseded_by" character varying(40), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_certificates_key_protection" CHECK ("key_protection" IN ('none','prompt','required')), CONSTRAINT "CHK_certificates_status" CHECK ("status" IN ('active','revoked')), CONSTRAINT "PK_87af1f436e42688acef033da093" PRIMARY KEY ("serial"))`,
    );
    await q.query(`CREATE INDEX "IDX_f434ea93e533e0913f06ad4b7f" ON "certificates" ("request_id")`);
    await q.query(
      `CREATE INDEX "IDX_806623ad197297e101a753c8c4" ON "certificates" ("user_identity")`,
    );
    await q.query(
      `CREATE INDEX "IDX_f6b1b60bb4bd1fff597c84fa56" ON "certificates" ("status", "not_after")`,
    );
    await q.query(
      `CREATE INDEX "IDX_a1eaf42dc486680f752ac154fa" ON "certificates" ("device_id", "purpose", "status")`,
    );
    await q.query(
      `CREATE TABLE "crl_state" ("id" smallint NOT NULL, "crl_number" bigint NOT NULL, "this_update" TIMESTAMP WITH TIME ZONE NOT NULL, "next_update" TIMESTAMP WITH TIME ZONE NOT NULL, "der" bytea NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_crl_state_singleton" CHECK ("id" = 1), CONSTRAINT "PK_96fdc67043b9edf6d3850aa9868" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "license_ledger" ("seq" bigint NOT NULL, "identity_key" character varying(200) NOT NULL, "event" character varying(16) NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "prev_hash" character varying(64) NOT NULL, "hash" character varying(64) NOT NULL, CONSTRAINT "CHK_license_ledger_event" CHECK ("event" IN ('count','decommission')), CONSTRAINT "PK_a51cbb3ab8a2084d4fb27016e89" PRIMARY KEY ("seq"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_5e561326ad0c67c44f9f66a20d" ON "license_ledger" ("identity_key")`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "IDX_c99bbea0d3d69953a1e989c6a2" ON "license_ledger" ("hash")`,
    );
    await q.query(
      `CREATE TABLE "license_slots" ("identity_key" character varying(200) NOT NULL, "device_id" uuid, "counted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ledger_seq" bigint NOT NULL, CONSTRAINT "PK_ac5ced4b11a705f37cb1a416bd8" PRIMARY KEY ("identity_key"))`,
    );
    await q.query(
      `CREATE TABLE "license_state" ("id" smallint NOT NULL, "instance_public_key" character varying(64) NOT NULL, "instance_encrypted_private_key" text NOT NULL, "high_water" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_license_state_singleton" CHECK ("id" = 1), CONSTRAINT "PK_c6e3904af365b8e3fb87e0afa66" PRIMARY KEY ("id"))`,
    );
    // The ledger is append-only: refuse UPDATE and DELETE at the database too.
    await q.query(
      `CREATE FUNCTION "license_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'license_ledger is append-only'; END $$`,
    );
    await q.query(
      `CREATE TRIGGER "TRG_license_ledger_append_only" BEFORE UPDATE OR DELETE ON "license_ledger" FOR EACH ROW EXECUTE FUNCTION "license_ledger_append_only"()`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

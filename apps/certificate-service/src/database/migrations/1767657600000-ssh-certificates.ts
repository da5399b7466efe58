import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SSH user CA (Ed25519, key sealed like the X.509 CA keys), SSH user certificates with
 * their serial sequence (serials 1, 2, 3 ...: 0 means "no serial" to OpenSSH and cannot be
 * revoked by serial), and the published KRL with its rising version.
 */
export class SshCertificates1767657600000 implements MigrationInterface {
  name = 'SshCertificates1767657600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "ssh_ca_material" ("id" smallint NOT NULL, "format_version" smallint NOT NULL, "public_key_blob" bytea NOT NULL, "encrypted_private_key" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_ssh_ca_material_singleton" CHECK ("id" = 1), CONSTRAINT "PK_9bff3e602284857174dc42f65b7" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "ssh_certificates" ("serial" bigint NOT NULL, "request_id" uuid NOT NULL, "device_id" uuid NOT NULL, "key_id" character varying(255) NOT NULL, "principals" text array NOT NULL, "owner" character varying(320), "key_type" character varying(32) NOT NULL, "public_key_fingerprint" character varying(64) NOT NULL, "valid_after" TIMESTAMP WITH TIME ZONE NOT NULL, "valid_before" TIMESTAMP WITH TIME ZONE NOT NULL, "certificate" bytea NOT NULL, "status" character varying(8) NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "revocation_reason" character varying(32), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_ssh_certificates_status" CHECK ("status" IN ('active','revoked')), CONSTRAINT "PK_d9ab35ab5803b139556e433108a" PRIMARY KEY ("serial"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_a468cff9ee6b74a61947108ae5" ON "ssh_certificates" ("request_id")`,
    );
    await q.query(
      `CREATE INDEX "IDX_750c621f861900cd851d0942bb" ON "ssh_certificates" ("status", "valid_before")`,
    );
    await q.query(
      `CREATE INDEX "IDX_3dd9c0fd14378a519263a41573" ON "ssh_certificates" ("device_id", "status")`,
    );
    // Not owned by a column: serials are drawn in batches by the issuance (nextval per row).
    await q.query(
      `CREATE SEQUENCE "ssh_certificate_serial_seq" AS bigint START WITH 1 MINVALUE 1 NO CYCLE`,
    );
    await q.query(
      `CREATE TABLE "ssh_krl_state" ("id" smallint NOT NULL, "version" bigint NOT NULL, "generated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "krl" bytea NOT NULL, "sha256" character varying(64) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_ssh_krl_state_singleton" CHECK ("id" = 1), CONSTRAINT "PK_a87489c764f7618a5605257ac9b" PRIMARY KEY ("id"))`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The LDAP directory of `POST /api/v1/enroll/identity-sid` (docs/certificate-service/identity-sid.md):
 * one row; the bind password sealed with CERTSVC_SCEP_ENC_KEY.
 */
export class IdentityDirectory1795800200000 implements MigrationInterface {
  name = 'IdentityDirectory1795800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "identity_directory_settings" ("id" smallint NOT NULL, "enabled" boolean NOT NULL, "url" character varying(2048) NOT NULL, "bind_dn" character varying(1024) NOT NULL, "sealed_bind_password" text, "base_dn" character varying(1024) NOT NULL, "upn_attribute" character varying(64) NOT NULL, "sid_attribute" character varying(64) NOT NULL, "timeout_ms" integer NOT NULL, "ca_pem" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" character varying(320) NOT NULL, CONSTRAINT "CHK_identity_directory_settings_singleton" CHECK ("id" = 1), CONSTRAINT "PK_identity_directory_settings_id" PRIMARY KEY ("id"))`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

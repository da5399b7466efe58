import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issuer profiles per X.509 purpose (docs/certificate-service/issuers.md): kind, non-secret
 * settings, secrets sealed with CERTSVC_SCEP_ENC_KEY.
 */
export class IssuerProfiles1795700200000 implements MigrationInterface {
  name = 'IssuerProfiles1795700200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "issuer_profiles" ("purpose" character varying(16) NOT NULL, "kind" character varying(16) NOT NULL, "settings" jsonb NOT NULL, "sealed_secrets" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" character varying(320) NOT NULL, CONSTRAINT "CHK_issuer_profiles_kind" CHECK ("kind" IN ('built_in','scep','est')), CONSTRAINT "PK_issuer_profiles_purpose" PRIMARY KEY ("purpose"))`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

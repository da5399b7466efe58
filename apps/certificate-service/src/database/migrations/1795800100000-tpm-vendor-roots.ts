import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * TPM vendor roots: the CA certificates an admin registers, against which the EK certificate
 * chain of a TPM-attested enrollment is checked. One row per certificate (unique SHA-256).
 */
export class TpmVendorRoots1795800100000 implements MigrationInterface {
  name = 'TpmVendorRoots1795800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "tpm_vendor_roots" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "name" character varying(100) NOT NULL, "certificate_der" bytea NOT NULL, "fingerprint_sha256" character varying(64) NOT NULL, "subject" text NOT NULL, "not_before" TIMESTAMP WITH TIME ZONE NOT NULL, "not_after" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_by" character varying(320) NOT NULL, CONSTRAINT "UQ_tpm_vendor_roots_fingerprint_sha256" UNIQUE ("fingerprint_sha256"), CONSTRAINT "PK_tpm_vendor_roots_id" PRIMARY KEY ("id"))`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * TPM attestation (docs/certificate-service/tpm-attestation.md): the credential-activation
 * challenge kept with its enroll nonce, and each request's attestation verdict.
 */
export class TpmAttestation1795800500000 implements MigrationInterface {
  name = 'TpmAttestation1795800500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "enroll_nonces" ADD "tpm_credential_hash" character varying(64), ADD "tpm_ak_name" character varying(140), ADD "tpm_ek_fingerprint" character varying(64)`,
    );
    await q.query(
      `ALTER TABLE "certificate_requests" ADD "attestation" character varying(16) NOT NULL DEFAULT 'none'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "certificate_requests" DROP COLUMN "attestation"`);
    await q.query(
      `ALTER TABLE "enroll_nonces" DROP COLUMN "tpm_ek_fingerprint", DROP COLUMN "tpm_ak_name", DROP COLUMN "tpm_credential_hash"`,
    );
  }
}

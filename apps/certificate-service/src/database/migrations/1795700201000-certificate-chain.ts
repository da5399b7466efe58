import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The CA chain of certificates from external issuers (EST, SCEP): bundles and agents get the
 * chain the certificate was issued under, not the built-in CA's.
 */
export class CertificateChain1795700201000 implements MigrationInterface {
  name = 'CertificateChain1795700201000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "certificates" ADD "chain_pem" text`);
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

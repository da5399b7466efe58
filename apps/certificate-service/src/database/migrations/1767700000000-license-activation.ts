import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The activated signed license (`license_b64` as uploaded) beside the deployment state. */
export class LicenseActivation1767700000000 implements MigrationInterface {
  name = 'LicenseActivation1767700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "license_state" ADD "license_b64" text, ADD "license_activated_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ledger integrity: the tamper flag on the deployment state and the checkpoints of the usage
 * ledger signed with the deployment instance key.
 */
export class LicenseIntegrity1767710000000 implements MigrationInterface {
  name = 'LicenseIntegrity1767710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "license_state" ADD "tamper_reason" text, ADD "tamper_at" TIMESTAMP WITH TIME ZONE`,
    );
    await q.query(
      `CREATE TABLE "license_checkpoints" ("id" BIGSERIAL NOT NULL, "seq" bigint NOT NULL, "hash" character varying(64) NOT NULL, "slot_count" integer NOT NULL, "anchor" boolean NOT NULL, "prefix_digest" character varying(64), "at" TIMESTAMP WITH TIME ZONE NOT NULL, "signature" character varying(100) NOT NULL, CONSTRAINT "PK_license_checkpoints" PRIMARY KEY ("id"))`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The seat enforcement step at approval (1 count only, 2 log and highlight, 3 refuse). */
export class LicenseSeatEnforcement1767720000000 implements MigrationInterface {
  name = 'LicenseSeatEnforcement1767720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "license_state" ADD "seat_enforcement" smallint NOT NULL DEFAULT 1`);
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The built-in root CA's own CRL (docs/certificate-service/revocation.md). */
export class RootCrl1795700400000 implements MigrationInterface {
  name = 'RootCrl1795700400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "root_crl_state" ("id" smallint NOT NULL, "crl_number" bigint NOT NULL, "this_update" TIMESTAMP WITH TIME ZONE NOT NULL, "next_update" TIMESTAMP WITH TIME ZONE NOT NULL, "der" bytea NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_root_crl_state_singleton" CHECK ("id" = 1), CONSTRAINT "PK_679d98d5ee128da13249d25e5b4" PRIMARY KEY ("id"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "root_crl_state"`);
  }
}

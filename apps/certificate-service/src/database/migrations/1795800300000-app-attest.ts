import type { MigrationInterface, QueryRunner } from 'typeorm';

/** App attestation challenges and receipts (docs/certificate-service/app-attest.md). */
export class AppAttest1795800300000 implements MigrationInterface {
  name = 'AppAttest1795800300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "app_attest_challenges" ("challenge_hash" character varying(64) NOT NULL, "serial" character varying(128) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_810ec9ea35e339b0d3362c1ebb0" PRIMARY KEY ("challenge_hash"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_6e462141dab40e22251ccb8233" ON "app_attest_challenges"  ("expires_at") `,
    );
    await q.query(
      `CREATE TABLE "app_attestations" ("id" uuid NOT NULL, "serial" character varying(128) NOT NULL, "key_id" character varying(64) NOT NULL, "app_id" character varying(255) NOT NULL, "environment" character varying(16) NOT NULL, "verdict" character varying(16) NOT NULL, "os_version" character varying(32), "verified_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_6f2acab39a328d75bba67612225" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_7e5c1724b1baffd12b596b925c" ON "app_attestations"  ("expires_at") `,
    );
    await q.query(
      `CREATE INDEX "IDX_911d9739db97b97aafdc6271d7" ON "app_attestations"  ("serial", "verified_at") `,
    );
    await q.query(`ALTER TABLE "certificate_requests" ADD "app_attest" character varying(16)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "certificate_requests" DROP COLUMN "app_attest"`);
    await q.query(`DROP TABLE "app_attestations"`);
    await q.query(`DROP TABLE "app_attest_challenges"`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Issuance directives (docs/certificate-service/issuance-directives.md). */
export class IssuanceDirectives1795700700000 implements MigrationInterface {
  name = 'IssuanceDirectives1795700700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "issuance_directives" ("id" uuid NOT NULL, "device_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "person" character varying(320) NOT NULL, "upn" character varying(320), "state" character varying(16) NOT NULL, "created_by" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "delivered_at" TIMESTAMP WITH TIME ZONE, "reported_at" TIMESTAMP WITH TIME ZONE, "outcome_message" character varying(1000), "cancelled_at" TIMESTAMP WITH TIME ZONE, "cancelled_by" character varying(320), CONSTRAINT "CHK_issuance_directives_purpose" CHECK ("purpose" IN ('user_mtls','ad_logon')), CONSTRAINT "CHK_issuance_directives_state" CHECK ("state" IN ('pending','delivered','done','failed','cancelled')), CONSTRAINT "PK_e4efa6b24eb68a635543b74dcab" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_issuance_directives_open" ON "issuance_directives"  ("device_id", "purpose", "person") WHERE "state" IN ('pending', 'delivered')`,
    );
    await q.query(
      `CREATE INDEX "IDX_aab3ca3d91dadcc46a7456f04c" ON "issuance_directives"  ("device_id", "created_at") `,
    );
    await q.query(
      `CREATE INDEX "IDX_0dd25bf6e324b44ca2ab41f4ef" ON "issuance_directives"  ("state", "created_at") `,
    );
    await q.query(
      `ALTER TABLE "issuance_directives" ADD CONSTRAINT "FK_8cfa95939c92d22765bd839dbf3" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "issuance_directives"`);
  }
}

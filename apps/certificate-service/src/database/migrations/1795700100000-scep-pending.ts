import type { MigrationInterface, QueryRunner } from 'typeorm';

/** SCEP pending records: requests in `ca_pending` and what the poller needs to ask the CA. */
export class ScepPending1795700100000 implements MigrationInterface {
  name = 'ScepPending1795700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "scep_pending" ("request_id" uuid NOT NULL, "transaction_id" character varying(128) NOT NULL, "issuer_kind" character varying(32) NOT NULL, "poll_state" jsonb, "device_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "subject" character varying(320) NOT NULL, "user_identity" character varying(320), "attempts" integer NOT NULL DEFAULT '0', "next_poll_at" TIMESTAMP WITH TIME ZONE, "last_error" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_scep_pending" PRIMARY KEY ("request_id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_33714677719747434976a10f5e" ON "scep_pending" ("next_poll_at") `,
    );
    await q.query(
      `ALTER TABLE "scep_pending" ADD CONSTRAINT "FK_5838432c554bf924e9dd49b2236" FOREIGN KEY ("request_id") REFERENCES "certificate_requests"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}

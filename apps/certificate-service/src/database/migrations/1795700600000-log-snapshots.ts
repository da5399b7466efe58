import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Agent log snapshots and pending snapshot requests (docs/certificate-service/log-snapshots.md). */
export class LogSnapshots1795700600000 implements MigrationInterface {
  name = 'LogSnapshots1795700600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "device_log_requests" ("device_id" uuid NOT NULL, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL, "requested_by" character varying(320) NOT NULL, CONSTRAINT "PK_1da2207e9323341cc27ecf17a78" PRIMARY KEY ("device_id"))`,
    );
    await q.query(
      `CREATE TABLE "device_log_snapshots" ("id" uuid NOT NULL, "device_id" uuid NOT NULL, "request_id" uuid NOT NULL, "uploaded_at" TIMESTAMP WITH TIME ZONE NOT NULL, "size_bytes" integer NOT NULL, "content_type" character varying(32) NOT NULL, "sha256" character varying(64) NOT NULL, "storage_key" character varying(64) NOT NULL, CONSTRAINT "PK_599e2b9f5340552e406572f963e" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_3c5ce6fff047afefb65ae0b16b" ON "device_log_snapshots"  ("uploaded_at")`,
    );
    await q.query(
      `CREATE INDEX "IDX_47093c748b5b3855e64fd59e52" ON "device_log_snapshots"  ("device_id", "uploaded_at")`,
    );
    await q.query(
      `ALTER TABLE "device_log_requests" ADD CONSTRAINT "FK_1da2207e9323341cc27ecf17a78" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "device_log_snapshots" ADD CONSTRAINT "FK_c86a176de638a48453519a284cd" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "device_log_snapshots"`);
    await q.query(`DROP TABLE "device_log_requests"`);
  }
}

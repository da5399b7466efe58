import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service-to-tracker transitions (issue 27, docs/findings-service/tickets.md, "Service to
 * tracker"): a ticket whose findings changed state carries `sync_requested_at` until the sync
 * job has brought its task along (partial index: the leader's 2-second scan reads only those),
 * and the reason of the last transition that failed for good.
 */
export class TicketSync1795605800000 implements MigrationInterface {
  name = 'TicketSync1795605800000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "tickets" ADD "sync_requested_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(`ALTER TABLE "tickets" ADD "sync_error" character varying(500)`);
    await queryRunner.query(
      `CREATE INDEX "IX_tickets_sync_requested" ON "tickets" ("sync_requested_at") WHERE "sync_requested_at" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IX_tickets_sync_requested"`);
    await queryRunner.query(`ALTER TABLE "tickets" DROP COLUMN "sync_error"`);
    await queryRunner.query(`ALTER TABLE "tickets" DROP COLUMN "sync_requested_at"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Report failures become a code plus values for its localized message: `failure_reason`, which
 * held raw parser and driver text, is replaced by `failure_details` (the byte offset of a
 * malformed report is kept). `warnings` counts the results skipped because they cannot be
 * stored, per warning code.
 */
export class ReportsFailureDetailsWarnings1764600000000 implements MigrationInterface {
  name = 'ReportsFailureDetailsWarnings1764600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reports" ADD "failure_details" jsonb`);
    await queryRunner.query(`ALTER TABLE "reports" ADD "warnings" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `UPDATE "reports" SET "failure_details" = jsonb_build_object('offset',
         substring("failure_reason" from 'at byte ([0-9]{1,15})')::bigint)
        WHERE "failure_code" = 'report_malformed' AND "failure_reason" ~ 'at byte [0-9]'`,
    );
    await queryRunner.query(
      `UPDATE "reports" SET "failure_code" = 'internal_error'
        WHERE "status" = 'failed' AND "failure_code" IS NULL`,
    );
    await queryRunner.query(`ALTER TABLE "reports" DROP COLUMN "failure_reason"`);
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

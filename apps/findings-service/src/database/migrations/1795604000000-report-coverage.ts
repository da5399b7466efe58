import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each run of a report says it looked at (issue 23, item 6): `reports.coverage`, an array
 * of `{scanner, incomplete, files, failed_files, hosts, skipped}` per run, written with the
 * report's completion (null before, and for reports completed before this migration). The
 * automatic closure decides absence from it.
 */
export class ReportCoverage1795604000000 implements MigrationInterface {
  name = 'ReportCoverage1795604000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reports" ADD "coverage" jsonb`);
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

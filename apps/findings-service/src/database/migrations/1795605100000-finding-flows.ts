import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the scanner said besides the finding's own location (issue 25, docs/findings-service/
 * sarif.md, Related locations and code flows): `findings.related_locations` and
 * `findings.code_flows`, SARIF `relatedLocations` and `codeFlows` as written by ingestion
 * (capped). Nullable, no default: adding them rewrites nothing; findings stored before get them
 * at their next sighting (the result digest version changed, so no re-sighting skips it).
 */
export class FindingFlows1795605100000 implements MigrationInterface {
  name = 'FindingFlows1795605100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "findings" ADD "related_locations" jsonb`);
    await queryRunner.query(`ALTER TABLE "findings" ADD "code_flows" jsonb`);
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

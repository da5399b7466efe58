import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `findings.content_digest`: digest of the raw result (and its run context) of the finding's
 * last sighting, see result-digest.ts. NULL for findings stored before it, manual findings,
 * SonarQube findings and merged results: those are always normalized on their next sighting.
 * No index: ingestion reads the product's digests once per large report and updates by id.
 */
export class FindingsContentDigest1764500000000 implements MigrationInterface {
  name = 'FindingsContentDigest1764500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "findings" ADD COLUMN IF NOT EXISTS "content_digest" uuid`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

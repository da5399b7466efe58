import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `findings.product_id` loses its foreign key (see FindingEntity.product): writers lock the
 * product row FOR KEY SHARE once per transaction and product deletion removes the findings
 * itself. Rows without their product (none can exist while the key was enforced) are removed
 * on the way, so the invariant holds from here on.
 */
export class FindingsProductKeyShare1764400000000 implements MigrationInterface {
  name = 'FindingsProductKeyShare1764400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "findings" DROP CONSTRAINT IF EXISTS "FK_2a89e5d6a25c233455773aa1d47"`,
    );
    await queryRunner.query(
      `DELETE FROM "findings" f WHERE NOT EXISTS (SELECT 1 FROM "products" p WHERE p.id = f.product_id)`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

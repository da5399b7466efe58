import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recovery of a rule's run (docs/findings-service/suppression.md#runs): the last time the run
 * showed life (`run_heartbeat_at`, each chunk) and the last finding id it committed
 * (`run_after_id`, with the chunk): a run whose worker died is replaced by the next one, and a
 * retried job resumes after the committed id instead of counting the walked findings again.
 */
export class SuppressionRunRecovery1795606600000 implements MigrationInterface {
  name = 'SuppressionRunRecovery1795606600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "suppression_rules" ADD "run_heartbeat_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(`ALTER TABLE "suppression_rules" ADD "run_after_id" uuid`);
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

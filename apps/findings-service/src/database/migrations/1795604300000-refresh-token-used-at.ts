import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One refresh-token rotation in both services (docs/auth-tokens.md): a rotation marks the
 * presented token used (`used_at`), ending a session revokes (`revoked_at`), as the
 * certificate service's table already records. Tokens rotated before this migration keep
 * their `revoked_at` and stay inactive.
 */
export class RefreshTokenUsedAt1795604300000 implements MigrationInterface {
  name = 'RefreshTokenUsedAt1795604300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "refresh_tokens" ADD "used_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}

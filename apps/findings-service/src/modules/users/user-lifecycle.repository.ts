import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActionLogWriter } from '../action-log/action-log.writer';
import type { Actor } from '../action-log/finding-action';
import { AssignedFindings } from './assigned-findings.port';
import { UserEntity } from './user.entity';

/** Writes of one locked user account; everything commits (or rolls back) together. */
export class UserLifecycleTx {
  constructor(
    private readonly manager: EntityManager,
    private readonly actionLog: ActionLogWriter,
    private readonly findings: AssignedFindings,
  ) {}

  /** Active administrators other than `userId` (their rows are locked by `withLockedUser`). */
  async otherActiveAdmins(userId: string): Promise<number> {
    const rows = (await this.manager.query(
      `SELECT count(*)::int AS n FROM users WHERE is_admin AND is_active AND id <> $1`,
      [userId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  async setActive(userId: string, active: boolean): Promise<UserEntity> {
    await this.manager.update(UserEntity, { id: userId }, { isActive: active });
    return this.manager.findOneByOrFail(UserEntity, { id: userId });
  }

  async revokeRefreshTokens(userId: string): Promise<void> {
    await this.manager.query(
      `UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId],
    );
  }

  /**
   * Clears the user as assignee of every finding (the findings module's statement,
   * AssignedFindings), with an `assigned` entry per finding.
   */
  async unassignFindings(userId: string, actor: Actor): Promise<number> {
    const rows = await this.findings.unassignFindingsOf(this.manager, userId);
    await this.actionLog.write(
      this.manager,
      rows.map((f) => ({
        findingId: f.id,
        projectId: f.projectId,
        actor,
        action: 'assigned' as const,
        from: { assignee_id: userId },
        to: { assignee_id: null },
      })),
    );
    return rows.length;
  }

  /** Deletes the row; memberships and refresh tokens go with it (ON DELETE CASCADE). */
  async delete(userId: string): Promise<void> {
    await this.manager.delete(UserEntity, { id: userId });
  }
}

/** Disabling, enabling and deleting accounts under locks that keep one active administrator. */
@Injectable()
export class UserLifecycleRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly actionLog: ActionLogWriter,
    private readonly findings: AssignedFindings,
  ) {}

  /**
   * Locks the user and every active administrator (in id order), then runs `fn` with the
   * user (undefined when it does not exist). Two administrators disabling each other at once
   * are serialized, so the second sees the first's change.
   */
  withLockedUser<T>(
    userId: string,
    fn: (user: UserEntity | undefined, tx: UserLifecycleTx) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `SELECT id FROM users WHERE id = $1 OR (is_admin AND is_active) ORDER BY id FOR UPDATE`,
        [userId],
      );
      const user = await manager.findOneBy(UserEntity, { id: userId });
      return fn(user ?? undefined, new UserLifecycleTx(manager, this.actionLog, this.findings));
    });
  }
}

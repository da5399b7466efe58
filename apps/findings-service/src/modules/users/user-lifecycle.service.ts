import { Injectable, Logger } from '@nestjs/common';
import { actorOf } from '../action-log/finding-action';
import type { AccessContext } from '../../app/access/access-context';
import { UserEntity } from './user.entity';
import { UsersError } from './users.errors';
import { UserLifecycleRepository, UserLifecycleTx } from './user-lifecycle.repository';
import { UsersService } from './users.service';

/**
 * Disabling, enabling and deleting accounts. Nobody disables or deletes their own account or
 * the last active administrator, nor the account the configuration seeds (LOCAL_ADMIN_EMAIL),
 * which would come back at the next start.
 */
@Injectable()
export class UserLifecycleService {
  private readonly logger = new Logger('Users');

  constructor(
    private readonly lifecycle: UserLifecycleRepository,
    private readonly users: UsersService,
  ) {}

  async setEnabled(access: AccessContext, userId: string, enabled: boolean): Promise<UserEntity> {
    const user = await this.lifecycle.withLockedUser(userId, async (found, tx) => {
      const target = this.existing(found);
      if (!enabled) await this.assertRemovable(access, target, tx);
      if (target.isActive === enabled) return target;
      const changed = await tx.setActive(target.id, enabled);
      if (!enabled) await tx.revokeRefreshTokens(target.id);
      return changed;
    });
    this.logger.log(
      `user ${user.id} ${enabled ? 'enabled' : 'disabled'} by ${access.principal.id}`,
    );
    return user;
  }

  /** Deletes the account; its action-log entries stay, naming it by id and email. */
  async delete(access: AccessContext, userId: string): Promise<void> {
    const unassigned = await this.lifecycle.withLockedUser(userId, async (found, tx) => {
      const target = this.existing(found);
      await this.assertRemovable(access, target, tx);
      await tx.revokeRefreshTokens(target.id);
      const count = await tx.unassignFindings(target.id, actorOf(access));
      await tx.delete(target.id);
      return count;
    });
    this.logger.log(
      `user ${userId} deleted by ${access.principal.id}; ${unassigned} findings unassigned`,
    );
  }

  private existing(user: UserEntity | undefined): UserEntity {
    if (!user) throw new UsersError('user_not_found');
    return user;
  }

  private async assertRemovable(
    access: AccessContext,
    target: UserEntity,
    tx: UserLifecycleTx,
  ): Promise<void> {
    if (target.id === access.principal.id) throw new UsersError('user_is_self');
    if (this.users.isConfiguredAdmin(target.email)) throw new UsersError('user_configured_admin');
    if (target.isAdmin && target.isActive && (await tx.otherActiveAdmins(target.id)) === 0) {
      throw new UsersError('user_last_admin');
    }
  }
}

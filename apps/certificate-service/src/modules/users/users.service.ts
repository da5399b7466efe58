import { Injectable } from '@nestjs/common';
import { hashPassword } from '@platform/auth';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../../app/access/actor';
import { sortRoles, type HumanRole } from '../../app/access/roles';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { UsersError } from './users.errors';
import { UsersRepository, type RoleChangeOutcome, type UserRecord } from './users.repository';

/** Administration of people: local accounts, roles, enabled flag, password resets. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<UserRecord[]> {
    return this.users.list();
  }

  async createLocal(
    actor: Actor,
    email: string,
    password: string,
    roles: HumanRole[],
  ): Promise<UserRecord> {
    const normalized = email.trim().toLowerCase();
    const created = await this.users.create(
      normalized,
      await hashPassword(password),
      sortRoles(roles),
    );
    if (!created) throw new UsersError('user_exists');
    await this.audit.record({
      action: 'user.create',
      actor,
      target: normalized,
      details: { roles: sortRoles(roles), local: true },
    });
    return this.get(normalized);
  }

  async setRoles(actor: Actor, email: string, roles: HumanRole[]): Promise<UserRecord> {
    const before = await this.get(email);
    const after = sortRoles(roles);
    this.check(await this.users.replaceRoles(before.email, after));
    await this.audit.record({
      action: 'user.roles_change',
      actor,
      target: before.email,
      details: { old: before.roles, new: after },
    });
    return this.get(before.email);
  }

  async setEnabled(actor: Actor, email: string, enabled: boolean): Promise<UserRecord> {
    const user = await this.get(email);
    this.check(await this.users.setEnabled(user.email, enabled));
    if (!enabled) await this.refreshTokens.revokeAllOf(user.email);
    await this.audit.record({
      action: enabled ? 'user.enable' : 'user.disable',
      actor,
      target: user.email,
    });
    return this.get(user.email);
  }

  async resetPassword(actor: Actor, email: string, password: string): Promise<void> {
    const user = await this.get(email);
    if (user.passwordHash === null) throw new UsersError('not_local_user');
    await this.users.setPasswordHash(user.email, await hashPassword(password));
    await this.refreshTokens.revokeAllOf(user.email);
    await this.audit.record({ action: 'user.password_reset', actor, target: user.email });
  }

  private async get(email: string): Promise<UserRecord> {
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user) throw new UsersError('user_not_found');
    return user;
  }

  private check(outcome: RoleChangeOutcome): void {
    if (outcome !== 'ok')
      throw new UsersError(outcome === 'not_found' ? 'user_not_found' : 'last_admin');
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { hashPassword, verifyPassword } from '@platform/auth';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { UserEntity } from './user.entity';
import { UsersError } from './users.errors';
import { UsersRepository } from './users.repository';

export interface CreateUserInput {
  email: string;
  displayName?: string;
  password?: string;
  isAdmin?: boolean;
}

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Users');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly users: UsersRepository,
  ) {}

  /** API only: seeds (or refreshes the password of) LOCAL_ADMIN_EMAIL. */
  async onApplicationBootstrap(): Promise<void> {
    const { enabled, adminEmail, adminPassword } = this.config.localAuth;
    if (this.config.role !== 'api' || !enabled || !adminEmail || !adminPassword) return;
    const existing = await this.users.findByEmail(adminEmail);
    const current =
      existing?.passwordHash && existing.isAdmin && existing.isActive
        ? await verifyPassword(adminPassword, existing.passwordHash)
        : false;
    if (current) return;
    await this.users.upsertAdmin(
      adminEmail,
      displayNameOf(adminEmail),
      await hashPassword(adminPassword),
    );
    this.logger.log(`local administrator ${adminEmail} ${existing ? 'refreshed' : 'created'}`);
  }

  /** The local administrator the configuration seeds (and restores) at every start. */
  isConfiguredAdmin(email: string): boolean {
    const { enabled, adminEmail } = this.config.localAuth;
    return enabled && adminEmail !== undefined && adminEmail === email.toLowerCase();
  }

  async get(id: string): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (!user) throw new UsersError('user_not_found');
    return user;
  }

  isBootstrapAdmin(email: string): boolean {
    const e = email.toLowerCase();
    return this.config.bootstrapAdminEmails.includes(e) || this.config.localAuth.adminEmail === e;
  }

  async create(input: CreateUserInput): Promise<UserEntity> {
    const email = input.email.trim().toLowerCase();
    const created = await this.users.insert({
      email,
      displayName: input.displayName?.trim() || displayNameOf(email),
      passwordHash: input.password ? await hashPassword(input.password) : null,
      isAdmin: (input.isAdmin ?? false) || this.isBootstrapAdmin(email),
    });
    if (!created) throw new UsersError('user_exists');
    return created;
  }

  list(): Promise<UserEntity[]> {
    return this.users.list();
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findByEmail(email.trim().toLowerCase());
  }

  /** The active user with this id, or null (deleted or deactivated). */
  findActive(id: string): Promise<UserEntity | null> {
    return this.users.findActiveById(id);
  }

  /**
   * The user a single sign-on identity names, joined by e-mail; a first sign-in creates the
   * user (no password: it signs in through the provider only). Safe when two first sign-ins
   * of the same e-mail race: the loser reads the winner's row.
   */
  async findOrCreateFromIdentity(email: string, displayName: string | null): Promise<UserEntity> {
    const normalized = email.trim().toLowerCase();
    const existing = await this.users.findByEmail(normalized);
    if (existing) return existing;
    const created = await this.users.insert({
      email: normalized,
      displayName: (displayName ?? displayNameOf(normalized)).slice(0, 200),
      passwordHash: null,
      isAdmin: this.isBootstrapAdmin(normalized),
    });
    const user = created ?? (await this.users.findByEmail(normalized));
    if (!user) throw new UsersError('user_not_found');
    if (created) this.logger.log(`user ${user.id} created at first single sign-on`);
    return user;
  }

  /** BOOTSTRAP_ADMIN_EMAILS become administrators when they sign in. */
  async applyBootstrapAdmin(user: UserEntity): Promise<UserEntity> {
    if (user.isAdmin || !this.isBootstrapAdmin(user.email)) return user;
    await this.users.promoteToAdmin(user.id);
    return { ...user, isAdmin: true };
  }
}

function displayNameOf(email: string): string {
  return email.split('@')[0] ?? email;
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { advisoryLockKey } from '@platform/database';
import { isHumanRole, type HumanRole } from '../../app/access/roles';
import { UserEntity } from './user.entity';

/** A user row with its roles. */
export interface UserRecord {
  email: string;
  passwordHash: string | null;
  enabled: boolean;
  roles: HumanRole[];
  createdAt: Date;
  lastLoginAt: Date | null;
}

export type RoleChangeOutcome = 'ok' | 'not_found' | 'last_admin';

/** Serialises every change to the role table (first admin, last admin). */
const ROLES_LOCK = advisoryLockKey('certificate-service:user-roles');

interface UserRow {
  email: string;
  password_hash: string | null;
  enabled: boolean;
  roles: string[] | null;
  created_at: Date;
  last_login_at: Date | null;
}

const SELECT_USERS = `
  SELECT u.email, u.password_hash, u.enabled, u.created_at, u.last_login_at,
         array_remove(array_agg(r.role ORDER BY r.role), NULL) AS roles
    FROM users u LEFT JOIN user_roles r ON r.email = u.email`;

function toRecord(row: UserRow): UserRecord {
  return {
    email: row.email,
    passwordHash: row.password_hash,
    enabled: row.enabled,
    roles: (row.roles ?? []).filter(isHumanRole),
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
  };
}

@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByEmail(email: string): Promise<UserRecord | null> {
    const rows: UserRow[] = await this.dataSource.query(
      `${SELECT_USERS} WHERE u.email = $1 GROUP BY u.email`,
      [email],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(): Promise<UserRecord[]> {
    const rows: UserRow[] = await this.dataSource.query(
      `${SELECT_USERS} GROUP BY u.email ORDER BY u.email`,
    );
    return rows.map(toRecord);
  }

  /** Inserts a user with roles; false when the email is taken. */
  async create(email: string, passwordHash: string | null, roles: HumanRole[]): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      const inserted: unknown[] = await m.query(
        `INSERT INTO users (email, password_hash) VALUES ($1, $2)
         ON CONFLICT (email) DO NOTHING RETURNING email`,
        [email, passwordHash],
      );
      if (inserted.length === 0) return false;
      if (roles.length > 0) await this.insertRoles(m, email, roles);
      return true;
    });
  }

  /**
   * Gives `cert-admin` to `email` when nobody holds any role yet. Atomic: the advisory lock
   * serialises concurrent first sign-ins, so exactly one of them becomes the admin.
   */
  async grantAdminIfNoRoles(email: string): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1::bigint)', [ROLES_LOCK]);
      const rows: unknown[] = await m.query(
        `INSERT INTO user_roles (email, role)
         SELECT $1, 'cert-admin' WHERE NOT EXISTS (SELECT 1 FROM user_roles)
         RETURNING email`,
        [email],
      );
      return rows.length === 1;
    });
  }

  /** Replaces a user's roles, refusing to leave no enabled `cert-admin`. */
  async replaceRoles(email: string, roles: HumanRole[]): Promise<RoleChangeOutcome> {
    return this.underRolesLock(email, async (m) => {
      if (!roles.includes('cert-admin') && (await this.isLastAdmin(m, email))) return 'last_admin';
      await m.query('DELETE FROM user_roles WHERE email = $1', [email]);
      if (roles.length > 0) await this.insertRoles(m, email, roles);
      return 'ok';
    });
  }

  /** Enables or disables a user, refusing to disable the last enabled `cert-admin`. */
  async setEnabled(email: string, enabled: boolean): Promise<RoleChangeOutcome> {
    return this.underRolesLock(email, async (m) => {
      if (!enabled && (await this.isLastAdmin(m, email))) return 'last_admin';
      await m.update(UserEntity, { email }, { enabled });
      return 'ok';
    });
  }

  async setPasswordHash(email: string, passwordHash: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(UserEntity)
      .update({ email }, { passwordHash });
    return (result.affected ?? 0) > 0;
  }

  async touchLogin(email: string): Promise<void> {
    await this.dataSource.getRepository(UserEntity).update({ email }, { lastLoginAt: new Date() });
  }

  private async underRolesLock(
    email: string,
    work: (m: EntityManager) => Promise<RoleChangeOutcome>,
  ): Promise<RoleChangeOutcome> {
    return this.dataSource.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1::bigint)', [ROLES_LOCK]);
      const exists: unknown[] = await m.query('SELECT 1 FROM users WHERE email = $1', [email]);
      return exists.length === 0 ? 'not_found' : work(m);
    });
  }

  /** Whether `email` is an enabled admin and no other enabled admin exists. */
  private async isLastAdmin(m: EntityManager, email: string): Promise<boolean> {
    const rows: { email: string }[] = await m.query(
      `SELECT r.email FROM user_roles r JOIN users u ON u.email = r.email
        WHERE r.role = 'cert-admin' AND u.enabled`,
    );
    return rows.length === 1 && rows[0].email === email;
  }

  private async insertRoles(m: EntityManager, email: string, roles: HumanRole[]): Promise<void> {
    await m.query(
      `INSERT INTO user_roles (email, role) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [email, roles],
    );
  }
}

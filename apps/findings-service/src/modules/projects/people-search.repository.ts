import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ProjectRole } from './project-roles';

export const PEOPLE_SCOPES = ['assignable', 'directory'] as const;
export type PeopleScope = (typeof PEOPLE_SCOPES)[number];

/** A user found by name or e-mail, with their role in the project (null: none). */
export interface FoundPerson {
  id: string;
  email: string;
  displayName: string;
  role: ProjectRole | null;
}

const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Finds people for a project's screens (reads `users` and `project_members`). */
@Injectable()
export class PeopleSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Active users whose e-mail or display name holds `q` (any case): `assignable` only the
   * project's members and global admins, `directory` everyone. Those whose e-mail or name
   * starts with `q` first, then by e-mail.
   */
  async search(
    projectId: string,
    q: string,
    scope: PeopleScope,
    limit: number,
  ): Promise<FoundPerson[]> {
    const needle = escapeLike(q.toLowerCase());
    const rows = (await this.dataSource.query(
      `SELECT u.id, u.email, u.display_name, m.role
         FROM users u
         LEFT JOIN project_members m ON m.user_id = u.id AND m.project_id = $1
        WHERE u.is_active
          AND (lower(u.email) LIKE $2 ESCAPE '\\' OR lower(u.display_name) LIKE $2 ESCAPE '\\')
          ${scope === 'assignable' ? 'AND (m.role IS NOT NULL OR u.is_admin)' : ''}
        ORDER BY (lower(u.email) LIKE $3 ESCAPE '\\' OR lower(u.display_name) LIKE $3 ESCAPE '\\') DESC,
                 u.email
        LIMIT $4`,
      [projectId, `%${needle}%`, `${needle}%`, limit],
    )) as { id: string; email: string; display_name: string; role: ProjectRole | null }[];
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      displayName: r.display_name,
      role: r.role,
    }));
  }

  /** The user with this e-mail (any letter case), or null. */
  async userIdByEmail(email: string): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM users WHERE lower(email) = lower($1) LIMIT 1`,
      [email],
    )) as { id: string }[];
    return rows[0]?.id ?? null;
  }
}

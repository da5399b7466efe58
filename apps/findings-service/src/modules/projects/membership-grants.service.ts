import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { Repository } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PermissionGrant } from '../../app/access/permissions';
import { ProjectMemberEntity } from './project-member.entity';
import { ROLE_PERMISSIONS, type ProjectRole } from './project-roles';

/** A user's memberships, read on every request of a non-admin user (never cached). */
const MEMBERSHIPS_SQL = 'SELECT project_id, role FROM project_members WHERE user_id = $1';

/**
 * Project-scoped permission grants a human user holds through project membership. The
 * authenticator adds them to the user's AccessContext, so `access.can(permission, target)`
 * answers the same way for users and service accounts.
 */
@Injectable()
export class MembershipGrantsService {
  constructor(
    @InjectRepository(ProjectMemberEntity)
    private readonly members: Repository<ProjectMemberEntity>,
  ) {}

  /**
   * One named prepared statement on the pool, as the account read (UsersRepository
   * .findActiveById), instead of the entity `find` and its query building (issue 34).
   */
  async grantsOf(userId: string): Promise<PermissionGrant[]> {
    const pool = (this.members.manager.connection.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<{ project_id: string; role: ProjectRole }>({
      name: 'findings-memberships-of-user',
      text: MEMBERSHIPS_SQL,
      values: [userId],
    });
    return rows.flatMap((row) =>
      ROLE_PERMISSIONS[row.role].map((permission) => ({
        permission,
        level: 'project' as const,
        projectId: row.project_id,
        productId: null,
        expiresAt: null,
      })),
    );
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { preparedQuery } from '@platform/database';
import { DataSource } from 'typeorm';
import type { ProjectRole } from './project-roles';

const MEMBERSHIPS_SQL = 'SELECT project_id, role FROM project_members WHERE user_id = $1';

/** A user's project memberships, read on every request of a non-admin user (never cached). */
@Injectable()
export class MembershipGrantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One named prepared statement on the pool, as the account read (UsersRepository
   * .findActiveById), instead of the entity `find` and its query building (issue 34).
   */
  async membershipsOf(userId: string): Promise<{ projectId: string; role: ProjectRole }[]> {
    const rows = await preparedQuery<{ project_id: string; role: ProjectRole }>(
      this.dataSource,
      'findings-memberships-of-user',
      MEMBERSHIPS_SQL,
      [userId],
    );
    return rows.map((row) => ({ projectId: row.project_id, role: row.role }));
  }
}

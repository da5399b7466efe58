import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { PeopleSearchRepository } from './people-search.repository';
import { ProjectAccessService } from './project-access.service';
import { MemberRow, ProjectMembersRepository } from './project-members.repository';
import { PROJECT_ROLES, ProjectRole } from './project-roles';
import { ProjectsError } from './projects.errors';
import { ProjectsRepository } from './projects.repository';

@Injectable()
export class ProjectMembersService {
  constructor(
    private readonly members: ProjectMembersRepository,
    private readonly projects: ProjectsRepository,
    private readonly projectAccess: ProjectAccessService,
    private readonly people: PeopleSearchRepository,
  ) {}

  async list(access: AccessContext, projectId: string): Promise<MemberRow[]> {
    await this.projectAccess.requireRole(access, projectId, PROJECT_ROLES);
    return this.members.list(projectId);
  }

  /** Project admins (and global admins) add members or change their role. */
  async put(
    access: AccessContext,
    projectId: string,
    userId: string,
    role: ProjectRole,
  ): Promise<MemberRow> {
    await this.projectAccess.requireRole(access, projectId, ['admin']);
    if (!(await this.projects.findById(projectId))) throw new ProjectsError('project_not_found');
    if (!(await this.members.upsert(projectId, userId, role))) {
      throw new ProjectsError('user_not_found');
    }
    const row = await this.members.find(projectId, userId);
    if (!row) throw new ProjectsError('member_not_found');
    return row;
  }

  /** As put, naming the user by e-mail (any case): `user_not_found` when no user has it. */
  async putByEmail(
    access: AccessContext,
    projectId: string,
    email: string,
    role: ProjectRole,
  ): Promise<MemberRow> {
    await this.projectAccess.requireRole(access, projectId, ['admin']);
    const userId = await this.people.userIdByEmail(email.trim());
    if (!userId) throw new ProjectsError('user_not_found');
    return this.put(access, projectId, userId, role);
  }

  async remove(access: AccessContext, projectId: string, userId: string): Promise<void> {
    await this.projectAccess.requireRole(access, projectId, ['admin']);
    if (!(await this.members.remove(projectId, userId))) {
      throw new ProjectsError('member_not_found');
    }
  }
}

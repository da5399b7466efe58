import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import type { PermissionName } from '../../app/access/permissions';
import { ProjectMembersRepository } from './project-members.repository';
import type { ProjectRole } from './project-roles';
import { ProjectsError } from './projects.errors';
import { VisibilityService } from './visibility.service';

/** A project or product a route is about. */
export interface ProjectTarget {
  projectId: string;
  productId?: string;
}

/**
 * The scoped half of every access decision (the guard only checks that the permission is held
 * somewhere). Callers who cannot see the object at all get the same answer as for a missing
 * one (`notFound`); callers who see it but lack the permission get 403.
 */
@Injectable()
export class ProjectAccessService {
  constructor(
    private readonly visibility: VisibilityService,
    private readonly members: ProjectMembersRepository,
  ) {}

  /** Throws `notFound()` when the caller holds nothing on the target, 403 without `permission`. */
  require(
    access: AccessContext,
    permission: PermissionName,
    target: ProjectTarget,
    notFound: () => Error,
  ): void {
    if (access.can(permission, target)) return;
    if (!this.visibility.canSee(access, target)) throw notFound();
    throw new ProjectsError('access_denied');
  }

  /** The user's role in the project; global admins count as project admins. */
  async roleOf(access: AccessContext, projectId: string): Promise<ProjectRole | null> {
    if (access.isAdmin) return 'admin';
    if (access.principal.kind !== 'user') return null;
    return this.members.roleOf(projectId, access.principal.id);
  }

  /** Projects the caller administers: 'all' for global admins. */
  async adminProjectIds(access: AccessContext): Promise<'all' | string[]> {
    if (access.isAdmin) return 'all';
    if (access.principal.kind !== 'user') return [];
    return this.members.projectsWithRole(access.principal.id, 'admin');
  }

  /** User routes: any role (or global admin) to see the project, `admin` to change it. */
  async requireRole(
    access: AccessContext,
    projectId: string,
    roles: readonly ProjectRole[],
  ): Promise<ProjectRole> {
    const role = await this.roleOf(access, projectId);
    if (role === null) throw new ProjectsError('project_not_found');
    if (!roles.includes(role)) throw new ProjectsError('access_denied');
    return role;
  }
}

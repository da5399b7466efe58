import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { ProjectsError } from '../projects/projects.errors';
import { VisibilityService } from '../projects/visibility.service';
import { ScopeRepository } from './scope.repository';

/**
 * The scoped half of the perimeter routes' access (the guard only checked that the caller
 * holds something somewhere): "any permission on the project" is a grant covering it (a role
 * in the project, a global administrator, a key's project or global grant); without one the
 * project does not exist for the caller (404). A route's own permission missing is 403.
 */
@Injectable()
export class ScopeAccess {
  constructor(
    private readonly visibility: VisibilityService,
    private readonly repository: ScopeRepository,
  ) {}

  async member(access: AccessContext, projectId: string): Promise<void> {
    if (
      !this.visibility.canSee(access, { projectId }) ||
      !(await this.repository.projectExists(projectId))
    ) {
      throw new ProjectsError('project_not_found');
    }
  }

  async require(
    access: AccessContext,
    projectId: string,
    permission: 'upload_report' | 'manage_scope',
  ): Promise<void> {
    await this.member(access, projectId);
    if (!access.can(permission, { projectId })) throw new ProjectsError('access_denied');
  }
}

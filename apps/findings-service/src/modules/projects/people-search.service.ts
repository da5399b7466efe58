import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { ProjectAccessService } from './project-access.service';
import { FoundPerson, PeopleScope, PeopleSearchRepository } from './people-search.repository';
import { ProjectsError } from './projects.errors';
import { ProjectsRepository } from './projects.repository';

/**
 * People by name for a project's screens (docs/findings-service/projects-and-roles.md):
 * `assignable` for analysts and admins of the project, `directory` (to add members) for its
 * admins; an invisible project is 404, a role that may not ask 403.
 */
@Injectable()
export class PeopleSearchService {
  constructor(
    private readonly people: PeopleSearchRepository,
    private readonly projects: ProjectsRepository,
    private readonly projectAccess: ProjectAccessService,
  ) {}

  async search(
    access: AccessContext,
    input: { projectId: string; q: string; scope: PeopleScope; limit: number },
  ): Promise<FoundPerson[]> {
    const roles =
      input.scope === 'directory' ? (['admin'] as const) : (['analyst', 'admin'] as const);
    await this.projectAccess.requireRole(access, input.projectId, roles);
    if (!(await this.projects.findById(input.projectId))) {
      throw new ProjectsError('project_not_found');
    }
    return this.people.search(input.projectId, input.q, input.scope, input.limit);
  }
}

import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { ProjectAccessService } from './project-access.service';
import { ProjectMembersRepository } from './project-members.repository';
import { PROJECT_ROLES } from './project-roles';
import { ProjectEntity } from './project.entity';
import { ProjectSettingsPatch, ProjectsRepository } from './projects.repository';
import { ProjectsError } from './projects.errors';
import type { ProjectFindingCounts } from './project-findings.port';

export interface ProjectWithCounts {
  project: ProjectEntity;
  counts: ProjectFindingCounts;
}

const NO_FINDINGS: ProjectFindingCounts = {
  total: 0,
  open: 0,
  attention: 0,
  openBySeverity: { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 },
};

export interface CreateProject {
  name: string;
  description?: string;
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly members: ProjectMembersRepository,
    private readonly projectAccess: ProjectAccessService,
  ) {}

  /** `create_project` is global-only; a creating user becomes the project's admin. */
  async create(access: AccessContext, input: CreateProject): Promise<ProjectEntity> {
    if (!access.can('create_project')) throw new ProjectsError('access_denied');
    const userId = access.principal.kind === 'user' ? access.principal.id : null;
    const project = await this.projects.insert({
      name: input.name.trim(),
      description: input.description ?? null,
      createdByUserId: userId,
    });
    if (!project) throw new ProjectsError('conflict', { field: 'name' });
    if (userId) await this.members.upsert(project.id, userId, 'admin');
    return project;
  }

  /** Global admins see every project, other users the projects they are members of. */
  async list(access: AccessContext): Promise<ProjectEntity[]> {
    if (access.isAdmin) return this.projects.list();
    const ids = [
      ...new Set(
        access.grants.flatMap((g) => (g.level === 'project' && g.projectId ? [g.projectId] : [])),
      ),
    ];
    return ids.length === 0 ? [] : this.projects.list(ids);
  }

  async get(access: AccessContext, id: string): Promise<ProjectEntity> {
    await this.projectAccess.requireRole(access, id, PROJECT_ROLES);
    return this.existing(id);
  }

  /** One project with its finding counts. */
  async oneWithCounts(project: ProjectEntity): Promise<ProjectWithCounts> {
    const counts = await this.projects.findingCounts([project.id]);
    return { project, counts: counts.get(project.id) ?? NO_FINDINGS };
  }

  /** The projects with their finding counts (members see every finding of their project). */
  async withCounts(projects: ProjectEntity[]): Promise<ProjectWithCounts[]> {
    const counts = await this.projects.findingCounts(projects.map((p) => p.id));
    return projects.map((project) => ({ project, counts: counts.get(project.id) ?? NO_FINDINGS }));
  }

  async updateSettings(
    access: AccessContext,
    id: string,
    patch: ProjectSettingsPatch,
  ): Promise<ProjectEntity> {
    await this.projectAccess.requireRole(access, id, ['admin']);
    await this.existing(id);
    await this.projects.updateSettings(id, patch);
    return this.existing(id);
  }

  /** For other modules: the project or `project_not_found`. */
  async existing(id: string): Promise<ProjectEntity> {
    const project = await this.projects.findById(id);
    if (!project) throw new ProjectsError('project_not_found');
    return project;
  }
}

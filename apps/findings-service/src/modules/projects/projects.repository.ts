import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ProjectFindingCounts, ProjectFindings } from './project-findings.port';
import { ProjectEntity } from './project.entity';

export type NewProject = Pick<ProjectEntity, 'name' | 'description' | 'createdByUserId'>;
export type ProjectSettingsPatch = Partial<
  Pick<
    ProjectEntity,
    | 'slaCriticalDays'
    | 'slaHighDays'
    | 'slaMediumDays'
    | 'slaLowDays'
    | 'slaInfoDays'
    | 'autoVerifyFixes'
  >
>;

/** Severity -> its remediation-days column of the project. */
const SEVERITY_DAYS = [
  ['CRITICAL', 'slaCriticalDays'],
  ['HIGH', 'slaHighDays'],
  ['MEDIUM', 'slaMediumDays'],
  ['LOW', 'slaLowDays'],
  ['INFO', 'slaInfoDays'],
] as const;

@Injectable()
export class ProjectsRepository {
  constructor(
    @InjectRepository(ProjectEntity) private readonly projects: Repository<ProjectEntity>,
    private readonly findings: ProjectFindings,
  ) {}

  /** Inserts; null when the name is taken. */
  async insert(project: NewProject): Promise<ProjectEntity | null> {
    const result = await this.projects
      .createQueryBuilder()
      .insert()
      .values(project)
      .orIgnore()
      .returning(['id'])
      .execute();
    const row = (result.raw as { id: string }[])[0];
    return row ? this.projects.findOneBy({ id: row.id }) : null;
  }

  /** Finding counts per project (absent: none), one grouped statement. */
  findingCounts(ids: readonly string[]): Promise<Map<string, ProjectFindingCounts>> {
    return ids.length === 0
      ? Promise.resolve(new Map())
      : this.findings.countsByProject(this.projects.manager, ids);
  }

  findById(id: string): Promise<ProjectEntity | null> {
    return this.projects.findOneBy({ id });
  }

  /** All projects (`ids` undefined) or those listed, by name. */
  list(ids?: string[]): Promise<ProjectEntity[]> {
    return this.projects.find({
      where: ids === undefined ? {} : { id: In(ids) },
      order: { name: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Updates the settings; changed remediation days apply at once to the project's findings that
   * are not closed (`sla_days`, and the deadline of a started clock: started + days + idle,
   * sla-clock.sql.ts), in the same transaction, by the findings module (ProjectFindings).
   */
  async updateSettings(id: string, patch: ProjectSettingsPatch): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    const days = SEVERITY_DAYS.filter(([, column]) => patch[column] !== undefined).map(
      ([severity, column]) => ({ severity, days: patch[column] ?? null }),
    );
    await this.projects.manager.transaction(async (manager) => {
      await manager.update(ProjectEntity, { id }, patch);
      if (days.length === 0) return;
      await this.findings.applySeverityDays(manager, id, days);
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
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

@Injectable()
export class ProjectsRepository {
  constructor(
    @InjectRepository(ProjectEntity) private readonly projects: Repository<ProjectEntity>,
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

  async updateSettings(id: string, patch: ProjectSettingsPatch): Promise<void> {
    if (Object.keys(patch).length > 0) await this.projects.update({ id }, patch);
  }
}

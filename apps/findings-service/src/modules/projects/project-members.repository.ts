import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { ProjectMemberEntity } from './project-member.entity';
import type { ProjectRole } from './project-roles';

export interface MemberRow {
  userId: string;
  email: string;
  displayName: string;
  role: ProjectRole;
  createdAt: Date;
}

@Injectable()
export class ProjectMembersRepository {
  constructor(
    @InjectRepository(ProjectMemberEntity)
    private readonly members: Repository<ProjectMemberEntity>,
  ) {}

  async roleOf(projectId: string, userId: string): Promise<ProjectRole | null> {
    const row = await this.members.findOneBy({ projectId, userId });
    return row?.role ?? null;
  }

  /** Insert or change the role; false when the user does not exist. */
  async upsert(projectId: string, userId: string, role: ProjectRole): Promise<boolean> {
    try {
      await this.members.upsert({ projectId, userId, role }, ['projectId', 'userId']);
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && sqlState(error) === '23503') return false;
      throw error;
    }
  }

  async projectsWithRole(userId: string, role: ProjectRole): Promise<string[]> {
    const rows = await this.members.find({ select: { projectId: true }, where: { userId, role } });
    return rows.map((r) => r.projectId);
  }

  async remove(projectId: string, userId: string): Promise<boolean> {
    const result = await this.members.delete({ projectId, userId });
    return (result.affected ?? 0) > 0;
  }

  async list(projectId: string): Promise<MemberRow[]> {
    const rows = await this.members.find({
      where: { projectId },
      relations: { user: true },
      order: { createdAt: 'ASC', userId: 'ASC' },
    });
    return rows.map(toMemberRow);
  }

  async find(projectId: string, userId: string): Promise<MemberRow | null> {
    const row = await this.members.findOne({
      where: { projectId, userId },
      relations: { user: true },
    });
    return row ? toMemberRow(row) : null;
  }
}

function sqlState(error: QueryFailedError): unknown {
  return (error.driverError as { code?: unknown }).code;
}

function toMemberRow(r: ProjectMemberEntity): MemberRow {
  return {
    userId: r.userId,
    email: r.user?.email ?? '',
    displayName: r.user?.displayName ?? '',
    role: r.role,
    createdAt: r.createdAt,
  };
}

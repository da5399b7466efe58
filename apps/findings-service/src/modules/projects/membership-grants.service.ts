import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { PermissionGrant } from '../../app/access/permissions';
import { ProjectMemberEntity } from './project-member.entity';
import { ROLE_PERMISSIONS } from './project-roles';

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

  async grantsOf(userId: string): Promise<PermissionGrant[]> {
    const rows = await this.members.find({
      select: { projectId: true, role: true },
      where: { userId },
    });
    return rows.flatMap((row) =>
      ROLE_PERMISSIONS[row.role].map((permission) => ({
        permission,
        level: 'project' as const,
        projectId: row.projectId,
        productId: null,
        expiresAt: null,
      })),
    );
  }
}

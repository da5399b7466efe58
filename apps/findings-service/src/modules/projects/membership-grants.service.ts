import { Injectable } from '@nestjs/common';
import type { PermissionGrant } from '../../app/access/permissions';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { ROLE_PERMISSIONS } from './project-roles';

/**
 * Project-scoped permission grants a human user holds through project membership. The
 * authenticator adds them to the user's AccessContext, so `access.can(permission, target)`
 * answers the same way for users and service accounts.
 */
@Injectable()
export class MembershipGrantsService {
  constructor(private readonly memberships: MembershipGrantsRepository) {}

  /** Read on every request of a non-admin user (never cached: a changed role counts at once). */
  async grantsOf(userId: string): Promise<PermissionGrant[]> {
    const rows = await this.memberships.membershipsOf(userId);
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

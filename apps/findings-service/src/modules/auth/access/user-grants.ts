import { UserEntity } from '../../users/user.entity';
import { UserPrincipal } from '../../../app/access/access-context';
import { PERMISSION_NAMES, PermissionGrant } from '../../../app/access/permissions';

/**
 * Effective permissions of a human user. Administrators hold every permission globally.
 * Other users hold none yet: project membership (next issue) will add project-scoped grants.
 */
export function userGrants(user: Pick<UserEntity, 'isAdmin'>): PermissionGrant[] {
  if (!user.isAdmin) return [];
  return PERMISSION_NAMES.map((permission) => ({
    permission,
    level: 'global',
    projectId: null,
    productId: null,
    expiresAt: null,
  }));
}

export function userPrincipal(user: Pick<UserEntity, 'id' | 'email' | 'isAdmin'>): UserPrincipal {
  return { kind: 'user', id: user.id, email: user.email, isAdmin: user.isAdmin };
}

import { isLevelAllowed, PermissionLevel, PermissionName } from '../../app/access/permissions';
import { ServiceAccountsError } from './service-accounts.errors';

export interface GrantRequest {
  permission: PermissionName;
  level: PermissionLevel;
  projectId?: string;
  productId?: string;
  expiresAt?: Date;
}

/**
 * The spec's grant rules: the level must be allowed for the permission, the level names its
 * own scope (and only it), and a global write_findings grant must expire.
 */
export function validateGrant(req: GrantRequest, now: Date): void {
  if (!isLevelAllowed(req.permission, req.level)) {
    throw new ServiceAccountsError('permission_level_invalid', {
      permission: req.permission,
      level: req.level,
    });
  }
  const scopeOk =
    (req.level === 'global' && !req.projectId && !req.productId) ||
    (req.level === 'project' && !!req.projectId && !req.productId) ||
    (req.level === 'product' && !!req.productId && !req.projectId);
  if (!scopeOk) throw new ServiceAccountsError('permission_scope_invalid');
  if (req.permission === 'write_findings' && req.level === 'global' && !req.expiresAt) {
    throw new ServiceAccountsError('permission_expiry_required');
  }
  if (req.expiresAt && req.expiresAt.getTime() <= now.getTime()) {
    throw new ServiceAccountsError('permission_expiry_in_past');
  }
}

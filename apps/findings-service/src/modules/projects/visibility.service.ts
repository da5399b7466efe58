import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { grantCovers, type AccessTarget, type PermissionName } from '../../app/access/permissions';

/** What a caller may read: everything, or a set of projects plus single products. */
export type VisibleScope =
  { all: true } | { all: false; projectIds: string[]; productIds: string[] };

/**
 * Which projects and products a principal can read, derived from its grants (global admins,
 * service-account grants, project membership). For list queries of the findings API:
 * `WHERE project_id = ANY(projectIds) OR product_id = ANY(productIds)` unless `all`.
 */
@Injectable()
export class VisibilityService {
  scope(access: AccessContext, permission: PermissionName = 'read_findings'): VisibleScope {
    const grants = access.grants.filter((g) => g.permission === permission);
    if (grants.some((g) => g.level === 'global')) return { all: true };
    const projectIds = new Set<string>();
    const productIds = new Set<string>();
    for (const g of grants) {
      if (g.level === 'project' && g.projectId) projectIds.add(g.projectId);
      if (g.level === 'product' && g.productId) productIds.add(g.productId);
    }
    return { all: false, projectIds: [...projectIds], productIds: [...productIds] };
  }

  /** Whether the caller holds any grant on the target: it may learn that the object exists. */
  canSee(access: AccessContext, target: AccessTarget): boolean {
    return access.grants.some((g) => grantCovers(g, target));
  }
}

/** Levels at which a permission can be granted. */
export const PERMISSION_LEVELS = ['project', 'product', 'global'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** The spec's permission table: which levels each permission may be granted at. */
export const PERMISSION_ALLOWED_LEVELS = {
  upload_report: ['project', 'product', 'global'],
  read_findings: ['project', 'product', 'global'],
  read_reports: ['project', 'product'],
  list_products: ['project', 'global'],
  create_project: ['global'],
  create_product: ['project', 'global'],
  update_product: ['project', 'product', 'global'],
  delete_product: ['project', 'product', 'global'],
  read_metrics: ['global'],
  manage_scope: ['project'],
  manage_notifications: ['project'],
  write_findings: ['project', 'product', 'global'],
} as const satisfies Record<string, readonly PermissionLevel[]>;

export type PermissionName = keyof typeof PERMISSION_ALLOWED_LEVELS;
export const PERMISSION_NAMES = Object.keys(PERMISSION_ALLOWED_LEVELS) as PermissionName[];

export function isLevelAllowed(permission: PermissionName, level: PermissionLevel): boolean {
  return (PERMISSION_ALLOWED_LEVELS[permission] as readonly PermissionLevel[]).includes(level);
}

/** A permission held by a principal at one scope. Expired grants are never loaded. */
export interface PermissionGrant {
  permission: PermissionName;
  level: PermissionLevel;
  projectId: string | null;
  productId: string | null;
  expiresAt: Date | null;
}

/** What a scoped check is about: the product (when known) and the project that owns it. */
export interface AccessTarget {
  projectId?: string;
  productId?: string;
}

/** Whether `grant` covers `target`: global covers all, project its products, product itself. */
export function grantCovers(grant: PermissionGrant, target: AccessTarget): boolean {
  switch (grant.level) {
    case 'global':
      return true;
    case 'project':
      return target.projectId !== undefined && grant.projectId === target.projectId;
    case 'product':
      return target.productId !== undefined && grant.productId === target.productId;
  }
}

import type { PermissionName } from '../../app/access/permissions';

/** Roles of human users inside a project (docs/findings-service/projects-and-roles.md). */
export const PROJECT_ROLES = ['admin', 'analyst', 'viewer'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** Project-level permissions each role holds (on the project and all of its products). */
export const ROLE_PERMISSIONS: Record<ProjectRole, readonly PermissionName[]> = {
  admin: [
    'upload_report',
    'read_findings',
    'read_reports',
    'list_products',
    'create_product',
    'update_product',
    'delete_product',
    'write_findings',
    'manage_scope',
    'manage_notifications',
  ],
  analyst: ['upload_report', 'read_findings', 'read_reports', 'list_products', 'write_findings'],
  viewer: ['read_findings', 'read_reports', 'list_products'],
};

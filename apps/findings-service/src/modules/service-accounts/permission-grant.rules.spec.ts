import {
  PERMISSION_ALLOWED_LEVELS,
  PERMISSION_LEVELS,
  PERMISSION_NAMES,
} from '../../app/access/permissions';
import { GrantRequest, validateGrant } from './permission-grant.rules';
import { ServiceAccountsError } from './service-accounts.errors';

const now = new Date('2030-01-01T00:00:00Z');
const later = new Date('2030-02-01T00:00:00Z');
const P = '11111111-1111-4111-8111-111111111111';

function scoped(req: Omit<GrantRequest, 'projectId' | 'productId'>): GrantRequest {
  if (req.level === 'project') return { ...req, projectId: P };
  if (req.level === 'product') return { ...req, productId: P };
  return req;
}

function codeOf(req: GrantRequest): string | undefined {
  try {
    validateGrant(req, now);
    return undefined;
  } catch (e) {
    return (e as ServiceAccountsError).code;
  }
}

describe('validateGrant', () => {
  it('follows the spec table exactly', () => {
    expect(PERMISSION_ALLOWED_LEVELS).toEqual({
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
    });
    for (const permission of PERMISSION_NAMES) {
      for (const level of PERMISSION_LEVELS) {
        const allowed = (PERMISSION_ALLOWED_LEVELS[permission] as readonly string[]).includes(
          level,
        );
        const expiresAt = permission === 'write_findings' ? later : undefined;
        expect(codeOf(scoped({ permission, level, expiresAt }))).toBe(
          allowed ? undefined : 'permission_level_invalid',
        );
      }
    }
  });

  it('needs an expiry for global write_findings only', () => {
    expect(codeOf({ permission: 'write_findings', level: 'global' })).toBe(
      'permission_expiry_required',
    );
    expect(
      codeOf({ permission: 'write_findings', level: 'project', projectId: P }),
    ).toBeUndefined();
    expect(codeOf({ permission: 'write_findings', level: 'global', expiresAt: now })).toBe(
      'permission_expiry_in_past',
    );
  });

  it('needs exactly the scope identifier of the level', () => {
    expect(codeOf({ permission: 'read_findings', level: 'project' })).toBe(
      'permission_scope_invalid',
    );
    expect(codeOf({ permission: 'read_findings', level: 'product', projectId: P })).toBe(
      'permission_scope_invalid',
    );
    expect(codeOf({ permission: 'read_findings', level: 'global', productId: P })).toBe(
      'permission_scope_invalid',
    );
  });
});

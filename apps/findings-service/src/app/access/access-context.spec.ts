import { AccessContext } from './access-context';
import { PermissionGrant } from './permissions';

const P1 = 'p1';
const P2 = 'p2';
const grant = (g: Partial<PermissionGrant>): PermissionGrant => ({
  permission: 'read_findings',
  level: 'global',
  projectId: null,
  productId: null,
  expiresAt: null,
  ...g,
});

describe('AccessContext', () => {
  const sa = { kind: 'service_account' as const, id: 'sa1', name: 'ci' };

  it('checks scoped permissions: global, project (and its products), product', () => {
    const ctx = new AccessContext(sa, [
      grant({ permission: 'upload_report', level: 'project', projectId: P1 }),
      grant({ permission: 'read_findings', level: 'product', productId: 'prod9' }),
      grant({ permission: 'list_products', level: 'global' }),
    ]);
    expect(ctx.can('upload_report', { projectId: P1 })).toBe(true);
    expect(ctx.can('upload_report', { projectId: P1, productId: 'any' })).toBe(true);
    expect(ctx.can('upload_report', { projectId: P2 })).toBe(false);
    expect(ctx.can('read_findings', { projectId: P1, productId: 'prod9' })).toBe(true);
    expect(ctx.can('read_findings', { projectId: P1 })).toBe(false);
    expect(ctx.can('list_products')).toBe(true);
    expect(ctx.holds('write_findings')).toBe(false);
    expect(ctx.projectsWith('upload_report')).toEqual([P1]);
    expect(ctx.projectsWith('list_products')).toBe('all');
    expect(ctx.roles).toEqual(['service_account']);
    expect(ctx.isAdmin).toBe(false);
  });

  it('knows users and administrators', () => {
    const admin = new AccessContext({ kind: 'user', id: 'u', email: 'a@x', isAdmin: true }, []);
    expect(admin.isUser && admin.isAdmin).toBe(true);
    expect(admin.roles).toEqual(['user', 'admin']);
  });
});

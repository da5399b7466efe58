import { can } from './access';
import { NAVIGATION } from './navigation';

describe('role capabilities', () => {
  it('gives approval to admins and approvers, administration to admins only', () => {
    expect(can({ roles: ['cert-admin'] }, 'admin')).toBe(true);
    expect(can({ roles: ['cert-admin'] }, 'approve')).toBe(true);
    expect(can({ roles: ['cert-approver'] }, 'approve')).toBe(true);
    expect(can({ roles: ['cert-approver'] }, 'admin')).toBe(false);
    expect(can({ roles: ['cert-viewer'] }, 'read')).toBe(true);
    expect(can({ roles: ['cert-viewer'] }, 'approve')).toBe(false);
  });

  it('gives a person without a role nothing, and a person with several the union', () => {
    expect(can({ roles: [] }, 'read')).toBe(false);
    expect(can(undefined, 'read')).toBe(false);
    expect(can({ roles: ['cert-viewer', 'cert-approver'] }, 'approve')).toBe(true);
  });

  it('has one navigation entry per path, each needing a known capability', () => {
    const paths = NAVIGATION.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const entry of NAVIGATION) expect(['read', 'approve', 'admin']).toContain(entry.needs);
  });
});

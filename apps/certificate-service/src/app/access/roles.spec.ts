import { actorLabel, mayActOnPurpose, type Actor } from './actor';
import { isHumanRole, primaryRole } from './roles';

describe('roles and actors', () => {
  it('picks the strongest role', () => {
    expect(primaryRole(['cert-viewer', 'cert-admin'])).toBe('cert-admin');
    expect(primaryRole(['cert-viewer', 'cert-approver'])).toBe('cert-approver');
    expect(primaryRole([])).toBeNull();
  });

  it('keeps cert-auto-approver away from people', () => {
    expect(isHumanRole('cert-auto-approver')).toBe(false);
    expect(isHumanRole('cert-viewer')).toBe(true);
  });

  it('labels service accounts API in the audit log and limits their purposes', () => {
    const sa: Actor = {
      kind: 'service_account',
      id: 'i',
      name: 'n',
      role: 'cert-auto-approver',
      roles: ['cert-auto-approver'],
      allowedPurposes: ['wifi'],
    };
    const person: Actor = {
      kind: 'user',
      email: 'a@b.c',
      role: 'cert-approver',
      roles: ['cert-approver'],
    };
    expect(actorLabel(sa)).toBe('API');
    expect(actorLabel(person)).toBe('a@b.c');
    expect(mayActOnPurpose(sa, 'wifi')).toBe(true);
    expect(mayActOnPurpose(sa, 'ssh')).toBe(false);
    expect(mayActOnPurpose(person, 'ssh')).toBe(true);
  });
});

import { AccessContext } from '../../app/access/access-context';
import { UserEntity } from './user.entity';
import { UserLifecycleRepository, UserLifecycleTx } from './user-lifecycle.repository';
import { UserLifecycleService } from './user-lifecycle.service';
import { UsersService } from './users.service';

const caller = new AccessContext(
  { kind: 'user', id: 'admin-1', email: 'root@example.test', isAdmin: true },
  [],
);

function user(overrides: Partial<UserEntity>): UserEntity {
  return {
    id: 'user-2',
    email: 'bob@example.test',
    displayName: 'bob',
    passwordHash: null,
    isAdmin: false,
    isActive: true,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

function serviceWith(target: UserEntity | undefined, otherActiveAdmins = 1) {
  const tx = {
    otherActiveAdmins: jest.fn().mockResolvedValue(otherActiveAdmins),
    setActive: jest.fn((id: string, active: boolean) =>
      Promise.resolve(user({ ...target, id, isActive: active })),
    ),
    revokeRefreshTokens: jest.fn().mockResolvedValue(undefined),
    unassignFindings: jest.fn().mockResolvedValue(2),
    delete: jest.fn().mockResolvedValue(undefined),
  };
  const repository = {
    withLockedUser: (
      _id: string,
      fn: (u: UserEntity | undefined, t: UserLifecycleTx) => Promise<unknown>,
    ) => fn(target, tx as unknown as UserLifecycleTx),
  };
  const users = { isConfiguredAdmin: (email: string) => email === 'root@example.test' };
  const service = new UserLifecycleService(
    repository as unknown as UserLifecycleRepository,
    users as unknown as UsersService,
  );
  return { service, tx };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (e: { code?: string }) => e.code,
  );

describe('UserLifecycleService', () => {
  it('disables with every refresh token revoked, and enables again', async () => {
    const { service, tx } = serviceWith(user({}));
    expect((await service.setEnabled(caller, 'user-2', false)).isActive).toBe(false);
    expect(tx.revokeRefreshTokens).toHaveBeenCalledWith('user-2');
    const again = serviceWith(user({ isActive: false }));
    expect((await again.service.setEnabled(caller, 'user-2', true)).isActive).toBe(true);
    expect(again.tx.revokeRefreshTokens).not.toHaveBeenCalled();
  });

  it('changes nothing when the account is already in the asked state', async () => {
    const { service, tx } = serviceWith(user({ isActive: false }));
    expect((await service.setEnabled(caller, 'user-2', false)).isActive).toBe(false);
    expect(tx.setActive).not.toHaveBeenCalled();
  });

  it('deletes after revoking sessions and unassigning findings as the caller', async () => {
    const { service, tx } = serviceWith(user({}));
    await service.delete(caller, 'user-2');
    expect(tx.revokeRefreshTokens).toHaveBeenCalledWith('user-2');
    expect(tx.unassignFindings).toHaveBeenCalledWith('user-2', {
      type: 'user',
      id: 'admin-1',
      label: 'root@example.test',
    });
    expect(tx.delete).toHaveBeenCalledWith('user-2');
  });

  it('refuses the caller, the configured administrator and the last active administrator', async () => {
    const self = serviceWith(user({ id: 'admin-1', isAdmin: true }));
    expect(await codeOf(self.service.setEnabled(caller, 'admin-1', false))).toBe('user_is_self');
    expect(await codeOf(self.service.delete(caller, 'admin-1'))).toBe('user_is_self');
    expect(await codeOf(self.service.setEnabled(caller, 'admin-1', true))).toBe('accepted');

    const configured = serviceWith(user({ email: 'root@example.test', isAdmin: true }));
    expect(await codeOf(configured.service.delete(caller, 'user-2'))).toBe('user_configured_admin');

    const last = serviceWith(user({ isAdmin: true }), 0);
    expect(await codeOf(last.service.setEnabled(caller, 'user-2', false))).toBe('user_last_admin');
    expect(await codeOf(last.service.delete(caller, 'user-2'))).toBe('user_last_admin');
    expect(last.tx.setActive).not.toHaveBeenCalled();
    expect(last.tx.delete).not.toHaveBeenCalled();

    const disabledAdmin = serviceWith(user({ isAdmin: true, isActive: false }), 0);
    expect(await codeOf(disabledAdmin.service.delete(caller, 'user-2'))).toBe('accepted');
  });

  it('answers user_not_found for an unknown id', async () => {
    const { service } = serviceWith(undefined);
    expect(await codeOf(service.setEnabled(caller, 'nope', false))).toBe('user_not_found');
    expect(await codeOf(service.delete(caller, 'nope'))).toBe('user_not_found');
  });
});

import { Badge, Button, Checkbox, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { setRoles, USER_ROLES, useUsers, type User, type UserRole } from './access-api';

function RolesDialog({ user, onClose }: { user: User; onClose(): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [roles, setChosen] = useState<string[]>(user.roles);
  const save = useMutation({
    mutationFn: () => setRoles(user.email, roles as UserRole[]),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['access', 'users'] });
      onClose();
    },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('access.rolesTitle', { email: user.email })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Checkbox.Group label={t('access.roles')} value={roles} onChange={setChosen}>
          <Stack gap={6} mt={6}>
            {USER_ROLES.map((role) => (
              <Checkbox key={role} value={role} label={t(`role.${role}`)} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Text size="xs">{t('access.noRoleHint')}</Text>
        <ErrorAlert error={save.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            {t('access.saveRoles')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The people who can sign in, their roles (changed by cert-admin), state and last sign-in. */
export function UsersPanel() {
  const { t, locale } = useI18n();
  const users = useUsers();
  const [editing, setEditing] = useState<User | null>(null);
  const columns: Column<User>[] = [
    { key: 'email', header: t('access.email'), cell: (u) => u.email },
    {
      key: 'roles',
      header: t('access.roles'),
      cell: (u) => (
        <span data-testid="user-roles">
          {u.roles.length ? u.roles.map((r) => t(`role.${r}`)).join(', ') : t('access.noRole')}
        </span>
      ),
    },
    {
      key: 'state',
      header: t('access.state'),
      cell: (u) => (
        <Badge variant="light" color={u.enabled ? 'green.9' : 'gray.8'}>
          {u.enabled ? t('access.enabled') : t('access.disabled')}
        </Badge>
      ),
    },
    { key: 'kind', header: t('access.kind'), cell: (u) => (u.local ? t('access.local') : 'SSO') },
    {
      key: 'last',
      header: t('access.lastLogin'),
      cell: (u) => (u.last_login_at ? formatDate(u.last_login_at, locale) : '—'),
    },
    {
      key: 'actions',
      header: t('access.actions'),
      cell: (u) => (
        <Button
          size="xs"
          variant="default"
          aria-label={t('access.changeRoles', { email: u.email })}
          onClick={() => setEditing(u)}
        >
          {t('access.editRoles')}
        </Button>
      ),
    },
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="access-users">
      <Title order={2} size="h4" id="access-users">
        {t('access.users')}
      </Title>
      <ErrorAlert error={users.error} />
      {users.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('access.usersCaption')}
          columns={columns}
          rows={users.data?.items ?? []}
          rowKey={(u) => u.email}
          rowTestId="user-row"
        />
      )}
      {editing && <RolesDialog user={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

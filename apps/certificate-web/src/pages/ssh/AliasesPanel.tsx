import { Badge, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import { createAlias, deleteAlias, splitList, useAliases, type PrincipalAlias } from './ssh-api';

/** Shared accounts (principal aliases, cert-admin): list, create with members, delete. */
export function AliasesPanel() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const aliases = useAliases();
  const [name, setName] = useState('');
  const [members, setMembers] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['ssh', 'aliases'] });
  const create = useMutation({
    mutationFn: () => createAlias({ name: name.trim(), members: splitList(members) }),
    onSuccess: async () => {
      setName('');
      setMembers('');
      await refresh();
    },
  });
  const remove = useMutation({ mutationFn: deleteAlias, onSuccess: refresh });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const columns: Column<PrincipalAlias>[] = [
    { key: 'name', header: t('ssh.aliasName'), cell: (a) => a.name },
    { key: 'members', header: t('ssh.members'), cell: (a) => a.members.join(', ') || '—' },
    {
      key: 'enabled',
      header: t('ssh.state'),
      cell: (a) => (
        <Badge variant="filled" color={a.enabled ? '#1b5e20' : '#495057'}>
          {a.enabled ? t('infra.enabled') : t('infra.disabled')}
        </Badge>
      ),
    },
    { key: 'created', header: t('ssh.created'), cell: (a) => formatDate(a.created_at, locale) },
    {
      key: 'actions',
      header: t('ssh.actions'),
      cell: (a) => (
        <Button
          size="xs"
          color="red.9"
          variant="light"
          aria-label={t('ssh.deleteAlias', { name: a.name })}
          onClick={() => remove.mutate(a.name)}
        >
          {t('infra.delete')}
        </Button>
      ),
    },
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="ssh-aliases">
      <Title order={2} size="h4" id="ssh-aliases">
        {t('ssh.aliases')}
      </Title>
      <form onSubmit={submit}>
        <Group align="flex-end" gap="xs">
          <TextInput
            label={t('ssh.aliasName')}
            description={t('ssh.aliasNameHint')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <TextInput
            label={t('ssh.members')}
            description={t('ssh.membersHint')}
            value={members}
            onChange={(e) => setMembers(e.currentTarget.value)}
            w={320}
          />
          <Button type="submit" loading={create.isPending}>
            {t('ssh.createAlias')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={create.error ?? remove.error ?? aliases.error} />
      {aliases.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('ssh.aliases')}
          columns={columns}
          rows={aliases.data?.items ?? []}
          rowKey={(a) => a.name}
          rowTestId="alias-row"
        />
      )}
    </Stack>
  );
}

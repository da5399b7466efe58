import { Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  ErrorAlert,
  formatDate,
  Loading,
  OneTimeSecret,
  PagedTable,
  type Column,
} from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import {
  createKeyholderToken,
  revokeKeyholderToken,
  splitList,
  useKeyholderTokens,
  type KeyholderToken,
} from './ssh-api';

/**
 * Key-holder tokens of target servers (cert-admin): create (the value is shown this once),
 * list without values, revoke.
 */
export function KeyholderTokensPanel() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const tokens = useKeyholderTokens();
  const [name, setName] = useState('');
  const [principals, setPrincipals] = useState('');
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['ssh', 'tokens'] });
  const create = useMutation({
    mutationFn: () => {
      const logins = splitList(principals);
      return createKeyholderToken({ name: name.trim(), principals: logins.length ? logins : null });
    },
    onSuccess: async (answer) => {
      setCreated({ name: answer.name, token: answer.token });
      // The value lives only in the one-time display, not in the mutation's cache.
      create.reset();
      setName('');
      setPrincipals('');
      await refresh();
    },
  });
  const revoke = useMutation({ mutationFn: revokeKeyholderToken, onSuccess: refresh });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const columns: Column<KeyholderToken>[] = [
    { key: 'name', header: t('ssh.tokenName'), cell: (k) => k.name },
    { key: 'prefix', header: t('ssh.tokenPrefix'), cell: (k) => <code>{k.token_prefix}…</code> },
    {
      key: 'principals',
      header: t('ssh.principals'),
      cell: (k) => k.principals?.join(', ') ?? t('ssh.everyLogin'),
    },
    {
      key: 'state',
      header: t('ssh.state'),
      cell: (k) => (
        <Badge
          variant="filled"
          color={k.revoked_at ? '#b71c1c' : '#1b5e20'}
          data-testid="token-state"
        >
          {k.revoked_at
            ? t('ssh.tokenRevoked', { at: formatDate(k.revoked_at, locale) })
            : t('ssh.tokenActive')}
        </Badge>
      ),
    },
    { key: 'created', header: t('ssh.created'), cell: (k) => formatDate(k.created_at, locale) },
    {
      key: 'actions',
      header: t('ssh.actions'),
      cell: (k) =>
        k.revoked_at ? null : (
          <Button
            size="xs"
            color="red.9"
            variant="light"
            aria-label={t('ssh.revokeToken', { name: k.name })}
            onClick={() => revoke.mutate(k.id)}
          >
            {t('ssh.revoke')}
          </Button>
        ),
    },
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="ssh-tokens">
      <Title order={2} size="h4" id="ssh-tokens">
        {t('ssh.tokens')}
      </Title>
      <Text size="sm">{t('ssh.tokensHint')}</Text>
      <form onSubmit={submit}>
        <Group align="flex-end" gap="xs">
          <TextInput
            label={t('ssh.tokenName')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <TextInput
            label={t('ssh.principals')}
            description={t('ssh.principalsHint')}
            value={principals}
            onChange={(e) => setPrincipals(e.currentTarget.value)}
            w={320}
          />
          <Button type="submit" loading={create.isPending}>
            {t('ssh.createToken')}
          </Button>
        </Group>
      </form>
      {created && (
        <OneTimeSecret
          label={t('ssh.tokenSecret', { name: created.name })}
          secret={created.token}
          onDone={() => setCreated(null)}
        />
      )}
      <ErrorAlert error={create.error ?? revoke.error ?? tokens.error} />
      {tokens.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('ssh.tokens')}
          columns={columns}
          rows={tokens.data?.items ?? []}
          rowKey={(k) => k.id}
          rowTestId="token-row"
        />
      )}
    </Stack>
  );
}

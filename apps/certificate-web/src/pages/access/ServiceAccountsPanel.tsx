import { Badge, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import {
  ErrorAlert,
  formatDate,
  Loading,
  OneTimeSecret,
  PagedTable,
  type Column,
} from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import {
  deleteServiceAccount,
  setServiceAccountEnabled,
  useServiceAccounts,
  type CreatedServiceAccount,
  type ServiceAccount,
} from './access-api';
import { CreateServiceAccountForm } from './CreateServiceAccountForm';

/**
 * Service accounts (tokens `wca_*` that approve requests of their allowed purposes): create
 * (the token shown once, `OneTimeSecret`; nothing keeps it), enable/disable, delete.
 */
export function ServiceAccountsPanel() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const accounts = useServiceAccounts();
  const [created, setCreated] = useState<CreatedServiceAccount | null>(null);
  const [deleting, setDeleting] = useState<ServiceAccount | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['access', 'service-accounts'] });
  const toggle = useMutation({
    mutationFn: (sa: ServiceAccount) => setServiceAccountEnabled(sa.id, !sa.enabled),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (sa: ServiceAccount) => deleteServiceAccount(sa.id),
    onSuccess: async () => {
      setDeleting(null);
      await refresh();
    },
  });
  const columns: Column<ServiceAccount>[] = [
    { key: 'name', header: t('access.name'), cell: (sa) => sa.name },
    {
      key: 'prefix',
      header: t('access.tokenPrefix'),
      cell: (sa) => <code>{sa.token_prefix}…</code>,
    },
    {
      key: 'purposes',
      header: t('access.allowedPurposes'),
      cell: (sa) => sa.allowed_purposes.map((p) => t(`purpose.${p}`)).join(', '),
    },
    {
      key: 'state',
      header: t('access.state'),
      cell: (sa) => (
        <Badge variant="light" color={sa.enabled ? 'green.9' : 'gray.8'}>
          {sa.enabled ? t('access.enabled') : t('access.disabled')}
        </Badge>
      ),
    },
    {
      key: 'expires',
      header: t('access.expires'),
      cell: (sa) => (sa.expires_at ? formatDate(sa.expires_at, locale) : t('access.noExpiry')),
    },
    {
      key: 'used',
      header: t('access.lastUsed'),
      cell: (sa) => (sa.last_used_at ? formatDate(sa.last_used_at, locale) : '—'),
    },
    {
      key: 'actions',
      header: t('access.actions'),
      cell: (sa) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            aria-label={t(sa.enabled ? 'access.disableNamed' : 'access.enableNamed', {
              name: sa.name,
            })}
            onClick={() => toggle.mutate(sa)}
          >
            {t(sa.enabled ? 'access.disable' : 'access.enable')}
          </Button>
          <Button
            size="xs"
            variant="outline"
            color="red.9"
            aria-label={t('access.deleteNamed', { name: sa.name })}
            onClick={() => setDeleting(sa)}
          >
            {t('access.delete')}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="access-sa">
      <Title order={2} size="h4" id="access-sa">
        {t('access.serviceAccounts')}
      </Title>
      <CreateServiceAccountForm
        onCreated={(account) => {
          setCreated(account);
          void refresh();
        }}
      />
      {created && (
        <OneTimeSecret
          label={t('access.tokenOf', { name: created.name })}
          secret={created.token}
          onDone={() => setCreated(null)}
        />
      )}
      <ErrorAlert error={accounts.error ?? toggle.error} />
      {accounts.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('access.serviceAccountsCaption')}
          columns={columns}
          rows={accounts.data?.items ?? []}
          rowKey={(sa) => sa.id}
          rowTestId="service-account-row"
        />
      )}
      {deleting && (
        <Modal
          opened
          onClose={() => setDeleting(null)}
          title={t('access.deleteTitle', { name: deleting.name })}
          closeButtonProps={{ 'aria-label': t('common.close') }}
        >
          <Stack>
            <Text size="sm">{t('access.deleteText')}</Text>
            <ErrorAlert error={remove.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('common.cancel')}
              </Button>
              <Button
                color="red.9"
                loading={remove.isPending}
                onClick={() => remove.mutate(deleting)}
              >
                {t('access.delete')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}

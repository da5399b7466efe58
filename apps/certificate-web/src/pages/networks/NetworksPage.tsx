import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { NetworkDialog } from './NetworkDialog';
import {
  deleteNetwork,
  networksCsv,
  setNetworkEnabled,
  useNetworks,
  type Network,
} from './networks-api';

/** Corporate network profiles: readable by every role; created, changed and deleted by cert-admin. */
export default function NetworksPage() {
  const { t, locale } = useI18n();
  const { user } = useSession();
  const admin = can(user, 'admin');
  const queryClient = useQueryClient();
  const networks = useNetworks();
  const [editing, setEditing] = useState<Network | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['networks'] });
  const remove = useMutation({ mutationFn: deleteNetwork, onSuccess: refresh });
  const toggle = useMutation({
    mutationFn: (n: Network) => setNetworkEnabled(n.id, !n.enabled),
    onSuccess: refresh,
  });
  const [csvError, setCsvError] = useState<unknown>(null);
  const download = async () => {
    setCsvError(null);
    try {
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await networksCsv());
      link.download = 'networks.csv';
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      setCsvError(error);
    }
  };
  const columns: Column<Network>[] = [
    { key: 'name', header: t('networks.name'), cell: (n) => n.name },
    { key: 'kind', header: t('networks.kindLabel'), cell: (n) => t(`networks.kind.${n.kind}`) },
    { key: 'ssid', header: t('networks.ssid'), cell: (n) => n.ssid ?? '—' },
    {
      key: 'radius',
      header: t('networks.radius'),
      cell: (n) => n.radius_server_names.join(', ') || t('networks.anyRadius'),
    },
    {
      key: 'state',
      header: t('infra.state'),
      cell: (n) => (
        <Badge
          variant="filled"
          color={n.enabled ? '#1b5e20' : '#495057'}
          data-testid="network-state"
        >
          {n.enabled ? t('infra.enabled') : t('infra.disabled')}
        </Badge>
      ),
    },
    { key: 'updated', header: t('infra.updated'), cell: (n) => formatDate(n.updated_at, locale) },
  ];
  if (admin) {
    columns.push({
      key: 'actions',
      header: t('infra.actions'),
      cell: (n) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            aria-label={t('networks.editNetwork', { name: n.name })}
            onClick={() => setEditing(n)}
          >
            {t('infra.edit')}
          </Button>
          <Button size="xs" variant="default" onClick={() => toggle.mutate(n)}>
            {n.enabled ? t('networks.disable') : t('networks.restore')}
          </Button>
          <Button
            size="xs"
            color="red.9"
            variant="light"
            aria-label={t('networks.deleteNetwork', { name: n.name })}
            onClick={() => remove.mutate(n.id)}
          >
            {t('infra.delete')}
          </Button>
        </Group>
      ),
    });
  }
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('networks.title')}
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => void download()}>
            {t('networks.exportCsv')}
          </Button>
          {admin && <Button onClick={() => setEditing('new')}>{t('networks.create')}</Button>}
        </Group>
      </Group>
      <ErrorAlert error={networks.error ?? remove.error ?? toggle.error ?? csvError} />
      {networks.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('networks.caption')}
          columns={columns}
          rows={networks.data?.items ?? []}
          rowKey={(n) => n.id}
          rowTestId="network-row"
        />
      )}
      {editing && (
        <NetworkDialog
          network={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

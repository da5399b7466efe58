import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { ClusterDialog } from './ClusterDialog';
import { deleteCluster, formatMappings, useClusters, type Cluster } from './k8s-api';

/** The Kubernetes cluster registry (cert-admin only, reading included): create, edit, delete. */
export default function KubernetesPage() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const clusters = useClusters();
  const [editing, setEditing] = useState<Cluster | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: deleteCluster,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['k8s', 'clusters'] }),
  });
  const columns: Column<Cluster>[] = [
    { key: 'name', header: t('k8s.name'), cell: (c) => c.name },
    { key: 'server', header: t('k8s.serverUrl'), cell: (c) => c.server_url },
    {
      key: 'groups',
      header: t('k8s.groups'),
      cell: (c) => (
        <Text size="xs" style={{ whiteSpace: 'pre' }}>
          {formatMappings(c.groups) || '—'}
        </Text>
      ),
    },
    {
      key: 'enabled',
      header: t('infra.state'),
      cell: (c) => (
        <Badge variant="filled" color={c.enabled ? '#1b5e20' : '#495057'}>
          {c.enabled ? t('infra.enabled') : t('infra.disabled')}
        </Badge>
      ),
    },
    { key: 'updated', header: t('infra.updated'), cell: (c) => formatDate(c.updated_at, locale) },
    {
      key: 'actions',
      header: t('infra.actions'),
      cell: (c) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            aria-label={t('k8s.editCluster', { name: c.name })}
            onClick={() => setEditing(c)}
          >
            {t('infra.edit')}
          </Button>
          <Button
            size="xs"
            color="red.9"
            variant="light"
            aria-label={t('k8s.deleteCluster', { name: c.name })}
            onClick={() => remove.mutate(c.id)}
          >
            {t('infra.delete')}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('k8s.title')}
        </Title>
        <Button onClick={() => setEditing('new')}>{t('k8s.create')}</Button>
      </Group>
      <ErrorAlert error={clusters.error ?? remove.error} />
      {clusters.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('k8s.caption')}
          columns={columns}
          rows={clusters.data?.items ?? []}
          rowKey={(c) => c.id}
          rowTestId="cluster-row"
        />
      )}
      {editing && (
        <ClusterDialog
          cluster={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

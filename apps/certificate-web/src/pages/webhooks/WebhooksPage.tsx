import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
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
import { DeliveriesPanel } from './DeliveriesPanel';
import { WebhookDialog } from './WebhookDialog';
import {
  deleteWebhook,
  setWebhookEnabled,
  testWebhook,
  useWebhooks,
  type Webhook,
} from './webhooks-api';

/**
 * Outgoing webhook endpoints (cert-admin only, reading included): create, edit, enable or
 * disable, delete, queue a test delivery; the signing secret shown once; each endpoint's
 * delivery log.
 */
export default function WebhooksPage() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const remove = useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async (_, id) => {
      if (logOf?.id === id) setLogOf(null);
      await refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (w: Webhook) => setWebhookEnabled(w.id, !w.enabled),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: (w: Webhook) => testWebhook(w.id),
    onSuccess: async (_, w) => {
      setQueued(w.url);
      await queryClient.invalidateQueries({ queryKey: ['webhooks', 'deliveries', w.id] });
    },
  });
  const columns: Column<Webhook>[] = [
    { key: 'url', header: t('webhooks.url'), cell: (w) => w.url },
    { key: 'description', header: t('webhooks.description'), cell: (w) => w.description || '—' },
    {
      key: 'types',
      header: t('webhooks.eventTypes'),
      cell: (w) => w.event_types.join(', ') || t('webhooks.everyType'),
    },
    {
      key: 'state',
      header: t('infra.state'),
      cell: (w) => (
        <Badge variant="filled" color={w.enabled ? '#1b5e20' : '#495057'}>
          {w.enabled ? t('infra.enabled') : t('infra.disabled')}
        </Badge>
      ),
    },
    { key: 'updated', header: t('infra.updated'), cell: (w) => formatDate(w.updated_at, locale) },
    {
      key: 'actions',
      header: t('infra.actions'),
      cell: (w) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            aria-label={t('webhooks.showLog', { url: w.url })}
            onClick={() => setLogOf(w)}
          >
            {t('webhooks.deliveries')}
          </Button>
          <Button size="xs" variant="default" onClick={() => test.mutate(w)}>
            {t('webhooks.test')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setEditing(w)}>
            {t('infra.edit')}
          </Button>
          <Button size="xs" variant="default" onClick={() => toggle.mutate(w)}>
            {w.enabled ? t('webhooks.disable') : t('webhooks.enable')}
          </Button>
          <Button
            size="xs"
            color="red.9"
            variant="light"
            aria-label={t('webhooks.deleteEndpoint', { url: w.url })}
            onClick={() => remove.mutate(w.id)}
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
          {t('webhooks.title')}
        </Title>
        <Button onClick={() => setEditing('new')}>{t('webhooks.create')}</Button>
      </Group>
      {secret && (
        <OneTimeSecret
          label={t('webhooks.secretOf', { url: secret.url })}
          secret={secret.secret}
          onDone={() => setSecret(null)}
        />
      )}
      {queued && (
        <Text size="sm" role="status">
          {t('webhooks.testQueued', { url: queued })}
        </Text>
      )}
      <ErrorAlert error={webhooks.error ?? remove.error ?? toggle.error ?? test.error} />
      {webhooks.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('webhooks.caption')}
          columns={columns}
          rows={webhooks.data?.items ?? []}
          rowKey={(w) => w.id}
          rowTestId="webhook-row"
        />
      )}
      {logOf && <DeliveriesPanel key={logOf.id} webhook={logOf} onClose={() => setLogOf(null)} />}
      {editing && (
        <WebhookDialog
          webhook={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSecret={(url, value) => setSecret({ url, secret: value })}
        />
      )}
    </Stack>
  );
}

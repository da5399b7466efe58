import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { fetchDeliveries, type Delivery, type Webhook } from './webhooks-api';

const STATUS_COLOR: Record<Delivery['status'], string> = {
  pending: '#8a3a00',
  delivered: '#1b5e20',
  failed: '#b71c1c',
};

/** The delivery log of one endpoint, newest first, page by page, with a refresh. */
export function DeliveriesPanel({ webhook, onClose }: { webhook: Webhook; onClose(): void }) {
  const { t, locale } = useI18n();
  const log = useInfiniteQuery({
    queryKey: ['webhooks', 'deliveries', webhook.id],
    queryFn: ({ pageParam }) => fetchDeliveries(webhook.id, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });
  const columns: Column<Delivery>[] = [
    {
      key: 'created',
      header: t('webhooks.created'),
      cell: (d) => formatDate(d.created_at, locale),
    },
    { key: 'type', header: t('webhooks.eventType'), cell: (d) => d.event_type },
    {
      key: 'status',
      header: t('infra.state'),
      cell: (d) => (
        <Badge variant="filled" color={STATUS_COLOR[d.status]} data-testid="delivery-status">
          {lookUp(t, 'webhooks.status', d.status)}
        </Badge>
      ),
    },
    { key: 'attempts', header: t('webhooks.attempts'), cell: (d) => d.attempts },
    {
      key: 'response',
      header: t('webhooks.response'),
      cell: (d) =>
        [d.last_response_code, d.last_error].filter((v) => v !== null).join(' · ') || '—',
    },
    {
      key: 'delivered',
      header: t('webhooks.delivered'),
      cell: (d) =>
        d.delivered_at
          ? formatDate(d.delivered_at, locale)
          : d.status === 'pending'
            ? t('webhooks.nextAttempt', { at: formatDate(d.next_attempt_at, locale) })
            : '—',
    },
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="webhook-deliveries">
      <Group justify="space-between">
        <Title order={2} size="h4" id="webhook-deliveries">
          {t('webhooks.deliveriesOf', { url: webhook.url })}
        </Title>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => void log.refetch()}>
            {t('webhooks.refresh')}
          </Button>
          <Button size="xs" variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
        </Group>
      </Group>
      <ErrorAlert error={log.error} />
      {log.isPending ? (
        <Loading />
      ) : (
        <>
          <Text size="sm">{t('webhooks.total', { total: log.data?.pages[0]?.total ?? 0 })}</Text>
          <PagedTable
            caption={t('webhooks.deliveries')}
            columns={columns}
            rows={log.data?.pages.flatMap((p) => p.items) ?? []}
            rowKey={(d) => d.id}
            rowTestId="delivery-row"
            hasMore={log.hasNextPage}
            loadingMore={log.isFetchingNextPage}
            onMore={() => void log.fetchNextPage()}
          />
        </>
      )}
    </Stack>
  );
}

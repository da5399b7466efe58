import { ErrorAlert, formatDate } from '@platform/web-ui';
import { Button, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, call, type Schemas } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';

type Summary = Schemas['ChannelDeliverySummaryDto'];

/** A channel's deliveries of this project: pending, the last 24 hours, the last failure. */
export function ChannelDeliverySummary({ summary }: { summary: Summary }) {
  const { t, locale } = useI18n();
  return (
    <Stack gap={0} data-testid="channel-delivery">
      <Text size="sm" data-testid="channel-delivery-counts">
        {t('deliveries.counts', {
          pending: summary.pending,
          delivered: summary.delivered_24h,
          failed: summary.failed_24h,
        })}
      </Text>
      {summary.last_failure_at && (
        <Text size="sm" c="red.9" data-testid="channel-last-failure">
          {t('deliveries.lastFailure', { at: formatDate(summary.last_failure_at, locale) })}{' '}
          {summary.last_failure_message ?? ''}
        </Text>
      )}
    </Stack>
  );
}

/** Who may not read deliveries (not `manage_notifications`) gets a 403: the table is not shown. */
function refused(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 404);
}

/**
 * The project's failed notification deliveries, newest first, each with **Retry** (failed →
 * pending, sent again by the worker). Project admins only (`manage_notifications`); for anyone
 * else the API answers 403 and nothing is shown.
 */
export function ChannelDeliveries({ projectId }: { projectId: string }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const key = ['notification-deliveries', projectId, 'failed'];
  const failed = useQuery({
    queryKey: key,
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/notification-deliveries', {
          params: { path: { id: projectId }, query: { state: 'failed', limit: 20 } },
        }),
      ),
    retry: (count, error) => !refused(error) && count < 2,
  });
  const retry = useMutation({
    mutationFn: (deliveryId: string) =>
      call(
        api.POST('/api/v1/projects/{id}/notification-deliveries/{delivery_id}/retry', {
          params: { path: { id: projectId, delivery_id: deliveryId } },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ['project-channels', projectId] });
    },
  });
  if (failed.isPending || refused(failed.error)) return null;
  const items = failed.data?.items ?? [];
  return (
    <Stack gap={4} data-testid="failed-deliveries">
      <Title order={3} size="h6">
        {t('deliveries.failedTitle')}
      </Title>
      <ErrorAlert error={failed.error ?? retry.error} />
      {retry.isSuccess && (
        <Text size="sm" c="#1e6b30" role="status" data-testid="delivery-retried">
          {t('deliveries.retried', { channel: retry.data.catalog_plugin_id })}
        </Text>
      )}
      {failed.isSuccess && items.length === 0 && <Text size="sm">{t('deliveries.noFailed')}</Text>}
      {items.length > 0 && (
        <Table striped withTableBorder fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('deliveries.channel')}</Table.Th>
              <Table.Th>{t('deliveries.kind')}</Table.Th>
              <Table.Th>{t('deliveries.attempts')}</Table.Th>
              <Table.Th>{t('deliveries.failedAt')}</Table.Th>
              <Table.Th>{t('deliveries.reason')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('deliveries.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.id} data-testid={`delivery-${d.id}`}>
                <Table.Td>{d.catalog_plugin_id}</Table.Td>
                <Table.Td>{lookUp(t, 'deliveries.kindName', d.kind)}</Table.Td>
                <Table.Td>{d.attempts}</Table.Td>
                <Table.Td>{formatDate(d.updated_at, locale)}</Table.Td>
                <Table.Td data-testid="delivery-reason">
                  {d.last_error_message}
                  {d.last_error_code && (
                    <Text size="xs" c="gray.8">
                      <code>{d.last_error_code}</code>
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <Button
                      size="xs"
                      variant="outline"
                      loading={retry.isPending && retry.variables === d.id}
                      aria-label={t('deliveries.retryOf', {
                        channel: d.catalog_plugin_id,
                        at: formatDate(d.updated_at, locale),
                      })}
                      onClick={() => retry.mutate(d.id)}
                    >
                      {t('common.retry')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

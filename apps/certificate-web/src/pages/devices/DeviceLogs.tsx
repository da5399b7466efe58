import { Button, Group, Table, Text } from '@mantine/core';
import { ErrorAlert, formatDate } from '@platform/web-ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, callVoid } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { Section } from './Section';
import { download } from './devices-api';

/**
 * Log snapshots (cert-admin only, reading included): request a fresh one (the agent uploads at
 * its next check-in), cancel the pending request, list, download (gzip) and delete.
 */
export function DeviceLogs({ serial }: { serial: string }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const path = { params: { path: { serial } } };
  const list = useQuery({
    queryKey: ['device', serial, 'logs'],
    queryFn: () => call(api.GET('/api/v1/devices/{serial}/logs', path)),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['device', serial, 'logs'] });
  const ask = useMutation({
    mutationFn: () => call(api.POST('/api/v1/devices/{serial}/request-logs', path)),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: () => callVoid(api.DELETE('/api/v1/devices/{serial}/request-logs', path)),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (logId: string) =>
      callVoid(
        api.DELETE('/api/v1/devices/{serial}/logs/{logId}', {
          params: { path: { serial, logId } },
        }),
      ),
    onSettled: refresh,
  });
  const fetchFile = useMutation({
    mutationFn: (logId: string) =>
      download(
        `/api/v1/devices/${encodeURIComponent(serial)}/logs/${logId}`,
        `logs-${serial}-${logId}.tar.gz`,
      ),
  });
  const items = list.data?.items ?? [];
  return (
    <Section title={t('device.logsTitle')} testId="device-logs">
      <Group gap="xs">
        <Button size="xs" variant="default" loading={ask.isPending} onClick={() => ask.mutate()}>
          {t('device.requestLogs')}
        </Button>
        <Button
          size="xs"
          variant="default"
          loading={cancel.isPending}
          onClick={() => cancel.mutate()}
        >
          {t('device.cancelLogs')}
        </Button>
        {ask.data && !cancel.isSuccess && (
          <Text size="sm" role="status" data-testid="logs-requested">
            {t('device.logsRequested', { at: formatDate(ask.data.requested_at, locale) })}
          </Text>
        )}
        {cancel.isSuccess && (
          <Text size="sm" role="status">
            {t('device.logsCancelled')}
          </Text>
        )}
      </Group>
      <ErrorAlert
        error={list.error ?? ask.error ?? cancel.error ?? remove.error ?? fetchFile.error}
      />
      {list.isSuccess && items.length === 0 && <Text size="sm">{t('device.logsNone')}</Text>}
      {items.length > 0 && (
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('device.uploaded')}</Table.Th>
              <Table.Th>{t('device.size')}</Table.Th>
              <Table.Th>{t('device.expires')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((log) => (
              <Table.Tr key={log.id} data-testid="log-row">
                <Table.Td>{formatDate(log.uploaded_at, locale)}</Table.Td>
                <Table.Td>{log.size_bytes.toLocaleString(locale)} B</Table.Td>
                <Table.Td>{formatDate(log.expires_at, locale)}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <Button size="xs" variant="default" onClick={() => fetchFile.mutate(log.id)}>
                      {t('device.download')}
                    </Button>
                    <Button
                      size="xs"
                      variant="outline"
                      color="red.9"
                      onClick={() => remove.mutate(log.id)}
                    >
                      {t('device.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

import { Button, Group, List, Paper, Text } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, toApiError } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { ConfirmDialog } from './ConfirmDialog';
import { Section } from './Section';
import type { Device, DeviceRevocation } from './devices-api';

/**
 * Full revoke (cert-admin): every active certificate and SSH key of the device. The answer is
 * shown per certificate — 200 all revoked (device blocked), 207 partial (not blocked; the
 * failed rows with their code) — then Unblock lifts a block.
 */
export function DeviceRevoke({ device }: { device: Device }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ status: number; body: DeviceRevocation } | null>(null);
  const serial = device.serial;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['device', serial] }),
      queryClient.invalidateQueries({ queryKey: ['certificates'] }),
      queryClient.invalidateQueries({ queryKey: ['devices'] }),
    ]);
  const revoke = useMutation({
    // 207 is a success to openapi-fetch (2xx): its body is the same shape as the 200's.
    mutationFn: async () => {
      const { data, error, response } = await api.POST('/api/v1/devices/{serial}/revoke', {
        params: { path: { serial } },
      });
      if (!response.ok || !data) throw toApiError(response, error);
      return { status: response.status, body: data };
    },
    onSuccess: setResult,
    onSettled: () => {
      setAsking(false);
      return refresh();
    },
  });
  const unblock = useMutation({
    mutationFn: async () => {
      const { error, response } = await api.POST('/api/v1/devices/{serial}/unblock', {
        params: { path: { serial } },
      });
      if (!response.ok) throw toApiError(response, error);
    },
    onSuccess: () => setResult(null),
    onSettled: refresh,
  });
  return (
    <Section title={t('device.revokeTitle')} testId="device-revoke">
      <Group gap="xs">
        <Button color="red.9" size="xs" onClick={() => setAsking(true)}>
          {t('device.revoke')}
        </Button>
        {device.blocked && (
          <Button
            size="xs"
            variant="default"
            loading={unblock.isPending}
            onClick={() => unblock.mutate()}
          >
            {t('device.unblock')}
          </Button>
        )}
        {unblock.isSuccess && !device.blocked && (
          <Text size="sm" role="status">
            {t('device.unblocked')}
          </Text>
        )}
      </Group>
      <ErrorAlert error={revoke.error ?? unblock.error} />
      {result && <RevokeResult status={result.status} body={result.body} />}
      {asking && (
        <ConfirmDialog
          title={t('device.revoke')}
          text={t('device.revokeConfirm', { serial })}
          confirmLabel={t('device.revoke')}
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate()}
          onCancel={() => setAsking(false)}
        />
      )}
    </Section>
  );
}

function RevokeResult({ status, body }: { status: number; body: DeviceRevocation }) {
  const { t } = useI18n();
  const complete = body.status === 'revoked';
  return (
    <Paper
      withBorder
      p="sm"
      role="status"
      data-testid="revoke-result"
      data-status={body.status}
      data-http={status}
      style={{ borderColor: `var(--mantine-color-${complete ? 'green' : 'red'}-9)` }}
    >
      <Text size="sm" fw={700} mb={4}>
        {status} · {t(`device.revokeResult.${body.status}`, { failed: body.ssh.failed.join(', ') })}
      </Text>
      {body.certificates.length === 0 && <Text size="sm">{t('device.revokeNone')}</Text>}
      <List size="sm">
        {body.certificates.map((row) => (
          <List.Item
            key={row.serial}
            data-testid="revoke-row"
            data-serial={row.serial}
            data-status={row.status}
          >
            <code>{row.serial}</code>:{' '}
            {row.status === 'revoked'
              ? t('device.revokeRow.revoked')
              : t('device.revokeRow.error', {
                  error: `${lookUp(t, 'revokeError', row.error ?? '')} (${row.error ?? ''})`,
                })}
            {row.warning ? ` — ${row.warning}` : ''}
          </List.Item>
        ))}
      </List>
      <Text size="sm" mt={4}>
        {t('device.revokeSsh', {
          certs: body.ssh.certificates.length,
          keys: body.ssh.keys_revoked + body.ssh.keys_rejected,
        })}
      </Text>
    </Paper>
  );
}

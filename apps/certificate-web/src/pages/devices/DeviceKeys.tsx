import { Button, Group, Table, Text } from '@mantine/core';
import { ErrorAlert, formatDate, OneTimeSecret } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../access';
import { api, call } from '../../api/client';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { ConfirmDialog } from './ConfirmDialog';
import { Section } from './Section';
import type { Device } from './devices-api';

type Release = 'unbind-tpm' | 'release-tpm-pin' | 'release-enroll-key' | 'release-continuity-key';

const RELEASES: Record<Release, (serial: string) => Promise<unknown>> = {
  'unbind-tpm': (serial) =>
    call(api.POST('/api/v1/devices/{serial}/unbind-tpm', { params: { path: { serial } } })),
  'release-tpm-pin': (serial) =>
    call(api.POST('/api/v1/devices/{serial}/release-tpm-pin', { params: { path: { serial } } })),
  'release-enroll-key': (serial) =>
    call(api.POST('/api/v1/devices/{serial}/release-enroll-key', { params: { path: { serial } } })),
  'release-continuity-key': (serial) =>
    call(
      api.POST('/api/v1/devices/{serial}/release-continuity-key', {
        params: { path: { serial } },
      }),
    ),
};

/**
 * Hardware keys and pins (TPM binding, AK pin, pinned request key, continuity key) with their
 * releases, and the enrollment token's rotation: cert-admin only, each after a confirmation.
 * The new token is shown once (OneTimeSecret) and kept nowhere.
 */
export function DeviceKeys({ device }: { device: Device }) {
  const { t, locale } = useI18n();
  const { user } = useSession();
  const isAdmin = can(user, 'admin');
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Release | 'rotate' | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const serial = device.serial;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['device', serial] });
  const release = useMutation({
    mutationFn: (action: Release) => RELEASES[action](serial),
    onSettled: () => {
      setAsking(null);
      return refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/devices/{serial}/rotate-enrollment-token', {
          params: { path: { serial } },
        }),
      ),
    onSuccess: (answer) => {
      setToken(answer.enrollment_token);
      // The token lives only in the one-time display, not in the mutation's cache.
      rotate.reset();
    },
    onSettled: () => {
      setAsking(null);
      return refresh();
    },
  });
  const rows: { label: string; set: boolean; action: Release }[] = [
    { label: t('device.tpmBound'), set: device.tpm_bound, action: 'unbind-tpm' },
    { label: t('device.tpmPinned'), set: device.tpm_pinned, action: 'release-tpm-pin' },
    {
      label: t('device.enrollKeyPinned'),
      set: device.enroll_key_pinned,
      action: 'release-enroll-key',
    },
    {
      label: t('device.continuityKey'),
      set: device.continuity_key_set,
      action: 'release-continuity-key',
    },
  ];
  return (
    <Section title={t('device.keysTitle')} testId="device-keys">
      <Table withTableBorder>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.action} data-testid="key-row" data-action={row.action}>
              <Table.Th scope="row">{row.label}</Table.Th>
              <Table.Td>{row.set ? t('device.set') : t('device.unset')}</Table.Td>
              {isAdmin && (
                <Table.Td>
                  <Button
                    size="xs"
                    variant="outline"
                    color="red.9"
                    disabled={!row.set}
                    onClick={() => setAsking(row.action)}
                  >
                    {t(`device.release.${row.action}`)}
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ErrorAlert error={release.error} />
      <Group gap="xs">
        <Text size="sm" fw={700}>
          {t('device.tokenTitle')}:
        </Text>
        <Text size="sm">
          {device.enrollment_token_rotated_at
            ? t('device.tokenRotatedAt', {
                at: formatDate(device.enrollment_token_rotated_at, locale),
              })
            : t('device.tokenNeverRotated')}
        </Text>
        {isAdmin && (
          <Button size="xs" variant="outline" color="red.9" onClick={() => setAsking('rotate')}>
            {t('device.rotateToken')}
          </Button>
        )}
      </Group>
      <ErrorAlert error={rotate.error} />
      {token && (
        <OneTimeSecret
          label={t('device.newToken', { serial })}
          secret={token}
          onDone={() => setToken(null)}
        />
      )}
      {asking === 'rotate' && (
        <ConfirmDialog
          title={t('device.rotateToken')}
          text={t('device.rotateConfirm', { serial })}
          busy={rotate.isPending}
          onConfirm={() => rotate.mutate()}
          onCancel={() => setAsking(null)}
        />
      )}
      {asking && asking !== 'rotate' && (
        <ConfirmDialog
          title={t(`device.release.${asking}`)}
          text={t('device.releaseConfirm', { action: t(`device.release.${asking}`), serial })}
          busy={release.isPending}
          onConfirm={() => release.mutate(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
    </Section>
  );
}

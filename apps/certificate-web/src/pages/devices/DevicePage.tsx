import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading } from '@platform/web-ui';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { CertificateTable } from '../certificates/CertificateTable';
import { DeviceDirectives } from './DeviceDirectives';
import { DeviceKeys } from './DeviceKeys';
import { DeviceLogs } from './DeviceLogs';
import { DevicePurposes } from './DevicePurposes';
import { DeviceRequests, DeviceSshKeys } from './DeviceLists';
import { DeviceRevoke } from './DeviceRevoke';
import { Section } from './Section';
import { useDevice } from './devices-api';

/**
 * The device card: summary and block state, purposes with seats and overrides, owner, keys and
 * pins, the enrollment token, certificates, requests (with the 'registered during block'
 * flag), SSH keys; for administrators also log snapshots, issuance directives and the full
 * revoke. What the role may not do is not shown (the API refuses it anyway).
 */
export default function DevicePage() {
  const { serial = '' } = useParams();
  const { t, locale } = useI18n();
  const { user } = useSession();
  const isAdmin = can(user, 'admin');
  const device = useDevice(serial);
  if (device.isPending) return <Loading />;
  const d = device.data;
  return (
    <Stack>
      <Anchor component={Link} to="/devices" size="sm">
        {t('device.back')}
      </Anchor>
      <Group gap="sm">
        <Title order={1} size="h3">
          {t('device.summary')} {serial}
        </Title>
        {d &&
          (d.blocked ? (
            <Badge color="red.9" variant="filled" data-testid="block-state">
              {t('device.blockedSince', {
                at: d.blocked_at ? formatDate(d.blocked_at, locale) : '',
              })}
            </Badge>
          ) : (
            <Badge color="green.9" variant="light" data-testid="block-state">
              {t('device.notBlocked')}
            </Badge>
          ))}
      </Group>
      <ErrorAlert error={device.error} />
      {device.isSuccess && !d && <Text role="status">{t('device.notFound', { serial })}</Text>}
      {d && (
        <>
          <Paper withBorder p="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
              <Field label={t('devices.hostname')}>{d.hostname}</Field>
              <Field label={t('devices.owner')}>{d.owner}</Field>
              <Field label={t('devices.platform')}>
                {[d.platform, d.agent_version].filter(Boolean).join(' · ')}
              </Field>
              <Field label={t('device.created')}>{formatDate(d.created_at, locale)}</Field>
              <Field label={t('devices.lastSeen')}>
                {d.last_seen_at ? formatDate(d.last_seen_at, locale) : ''}
              </Field>
              <Field label={t('device.identity')}>{d.identity_key}</Field>
            </SimpleGrid>
          </Paper>
          {isAdmin && <DeviceRevoke device={d} />}
          <DevicePurposes device={d} />
          <DeviceKeys device={d} />
          <Section title={t('device.certificatesTitle')}>
            <CertificateTable filters={{ device: d.serial }} />
          </Section>
          <DeviceRequests serial={d.serial} />
          <DeviceSshKeys serial={d.serial} />
          {isAdmin && <DeviceLogs serial={d.serial} />}
          {isAdmin && <DeviceDirectives serial={d.serial} />}
        </>
      )}
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text size="sm">{children || '—'}</Text>
    </div>
  );
}

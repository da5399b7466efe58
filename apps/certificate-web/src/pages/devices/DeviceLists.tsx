import { Badge, Table, Text } from '@mantine/core';
import { ErrorAlert, formatDate, Loading } from '@platform/web-ui';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { Section } from './Section';
import { useDeviceRequests } from './devices-api';

/** The device's requests (newest 50), each with its status and the permanent block flag. */
export function DeviceRequests({ serial }: { serial: string }) {
  const { t, locale } = useI18n();
  const requests = useDeviceRequests(serial);
  return (
    <Section title={t('device.requestsTitle')} testId="device-requests">
      <ErrorAlert error={requests.error} />
      {requests.isPending ? (
        <Loading />
      ) : (
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('requests.created')}</Table.Th>
              <Table.Th>{t('requests.purpose')}</Table.Th>
              <Table.Th>{t('requests.status')}</Table.Th>
              <Table.Th>{t('requests.requestedBy')}</Table.Th>
              <Table.Th>{t('requests.flags')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(requests.data?.items ?? []).map((r) => (
              <Table.Tr key={r.id} data-testid="device-request" data-request-id={r.id}>
                <Table.Td>{formatDate(r.created_at, locale)}</Table.Td>
                <Table.Td>{t(`purpose.${r.purpose}`)}</Table.Td>
                <Table.Td>{lookUp(t, 'status', r.status)}</Table.Td>
                <Table.Td>{r.user_identity ?? r.requested_by}</Table.Td>
                <Table.Td>
                  {r.registered_during_block ? (
                    <Badge color="#8a3a00" variant="filled">
                      {t('requests.duringBlock')}
                    </Badge>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

/** The SSH keys the device registered (every reading role). */
export function DeviceSshKeys({ serial }: { serial: string }) {
  const { t, locale } = useI18n();
  const keys = useQuery({
    queryKey: ['device', serial, 'ssh-keys'],
    queryFn: () =>
      call(api.GET('/api/v1/devices/{serial}/ssh-keys', { params: { path: { serial } } })),
  });
  const rows = keys.data ?? [];
  return (
    <Section title={t('device.sshTitle')} testId="device-ssh-keys">
      <ErrorAlert error={keys.error} />
      {keys.isSuccess && rows.length === 0 && <Text size="sm">{t('device.sshNone')}</Text>}
      {rows.length > 0 && (
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('device.sshFingerprint')}</Table.Th>
              <Table.Th>{t('device.sshState')}</Table.Th>
              <Table.Th>{t('device.sshOwner')}</Table.Th>
              <Table.Th>{t('requests.created')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((k) => (
              <Table.Tr key={k.id}>
                <Table.Td>
                  <code>{k.fingerprint}</code> {k.key_type}
                </Table.Td>
                <Table.Td>{k.state}</Table.Td>
                <Table.Td>{k.owner ?? ''}</Table.Td>
                <Table.Td>{formatDate(k.created_at, locale)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

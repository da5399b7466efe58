import { Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ErrorAlert, Loading } from '@platform/web-ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { api, call } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';

function Figure({
  label,
  value,
  testId,
}: {
  label: string;
  value: number | string;
  testId: string;
}) {
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm">{label}</Text>
      <Text size="sm" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

/** GET /api/v1/admin/stats: devices, certificates, license usage and requests by status. */
export default function DashboardPage() {
  const { t } = useI18n();
  const stats = useQuery({
    queryKey: ['stats'],
    queryFn: () => call(api.GET('/api/v1/admin/stats')),
  });
  if (stats.isPending) return <Loading />;
  if (!stats.data) return <ErrorAlert error={stats.error} />;
  const { devices, certificates, license, requests } = stats.data;
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('dashboard.title')}
      </Title>
      <SimpleGrid cols={3} maw={1100}>
        <Paper withBorder p="sm" component="section" aria-label={t('dashboard.devices')}>
          <Title order={2} size="h5" mb="xs">
            {t('dashboard.devices')}
          </Title>
          <Figure label={t('dashboard.devicesTotal')} value={devices.total} testId="stat-devices" />
          <Figure
            label={t('dashboard.devicesBlocked')}
            value={devices.blocked}
            testId="stat-blocked"
          />
        </Paper>
        <Paper withBorder p="sm" component="section" aria-label={t('dashboard.certificates')}>
          <Title order={2} size="h5" mb="xs">
            {t('dashboard.certificates')}
          </Title>
          <Figure label={t('dashboard.active')} value={certificates.active} testId="stat-active" />
          <Figure
            label={t('dashboard.expiringSoon', { days: certificates.expiring_window_days })}
            value={certificates.expiring_soon}
            testId="stat-expiring"
          />
          <Figure
            label={t('dashboard.expired')}
            value={certificates.expired}
            testId="stat-expired"
          />
          <Figure
            label={t('dashboard.revoked')}
            value={certificates.revoked}
            testId="stat-revoked"
          />
        </Paper>
        <Paper withBorder p="sm" component="section" aria-label={t('dashboard.license')}>
          <Title order={2} size="h5" mb="xs">
            {t('dashboard.license')}
          </Title>
          <Text size="sm" data-testid="stat-license">
            {t('dashboard.licenseUsage', { used: license.active_count, max: license.max_devices })}
          </Text>
        </Paper>
      </SimpleGrid>
      <Table withTableBorder maw={500}>
        <Table.Caption>{t('dashboard.requests')}</Table.Caption>
        <Table.Tbody>
          {Object.entries(requests).map(([status, count]) => (
            <Table.Tr key={status}>
              <Table.Td>
                <Link to={`/requests?status=${encodeURIComponent(status)}`}>
                  {lookUp(t, 'status', status)}
                </Link>
              </Table.Td>
              <Table.Td data-testid={`stat-requests-${status}`}>{count}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

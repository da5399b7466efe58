import { Badge, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import {
  setSeatEnforcement,
  useLicenseStatus,
  useSeatEnforcement,
  type LicenseStatus,
  type ReanchorResult,
  type SeatStep,
} from './license-api';
import { ActivatePanel, ReanchorPanel } from './LicensePanels';

function StatusTable({ status }: { status: LicenseStatus }) {
  const { t, locale } = useI18n();
  const rows: [string, string, string][] = [
    ['mode', t('license.mode'), lookUp(t, 'license.modeName', status.mode)],
    ['tier', t('license.tier'), status.tier],
    ['issued-to', t('license.issuedTo'), status.issued_to || '—'],
    [
      'devices',
      t('license.devices'),
      t('license.devicesUsage', { used: status.active_count, max: status.max_devices }),
    ],
    ['high-water', t('license.highWater'), String(status.high_water)],
    [
      'expires',
      t('license.expires'),
      status.expires_at ? formatDate(status.expires_at, locale) : t('license.never'),
    ],
    ['instance-key', t('license.instanceKey'), status.deployment_instance_key],
  ];
  return (
    <Table withTableBorder maw={760}>
      <Table.Caption>{t('license.statusCaption')}</Table.Caption>
      <Table.Tbody>
        {rows.map(([id, label, value]) => (
          <Table.Tr key={id}>
            <Table.Th scope="row" w={220}>
              {label}
            </Table.Th>
            <Table.Td data-testid={`license-${id}`} style={{ wordBreak: 'break-all' }}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function SeatsTable({ status }: { status: LicenseStatus }) {
  const { t } = useI18n();
  return (
    <Stack gap={4}>
      {!status.purpose_seats_limited && (
        <Text size="sm" data-testid="seats-unlimited">
          {t('license.seatsUnlimited')}
        </Text>
      )}
      <Table withTableBorder maw={760}>
        <Table.Caption>{t('license.seatsCaption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('license.purpose')}</Table.Th>
            <Table.Th>{t('license.bought')}</Table.Th>
            <Table.Th>{t('license.used')}</Table.Th>
            <Table.Th>{t('license.free')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {status.purpose_seats.map((row) => {
            const over = status.purpose_seats_limited && row.used > row.bought;
            return (
              <Table.Tr key={row.purpose} data-testid="seat-row" data-purpose={row.purpose}>
                <Table.Td>{t(`purpose.${row.purpose}`)}</Table.Td>
                <Table.Td>{status.purpose_seats_limited ? row.bought : '—'}</Table.Td>
                <Table.Td>
                  {row.used}{' '}
                  {over && (
                    <Badge color="red.9" variant="filled">
                      {t('license.overSeats')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{status.purpose_seats_limited ? row.free : '—'}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

const STEPS: SeatStep[] = [1, 2, 3];

function EnforcementStep({ admin }: { admin: boolean }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const current = useSeatEnforcement();
  const [choice, setChoice] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (step: SeatStep) => setSeatEnforcement(step),
    onSuccess: async () => {
      setChoice(null);
      await queryClient.invalidateQueries({ queryKey: ['license'] });
    },
  });
  if (!current.data) return <ErrorAlert error={current.error} />;
  const value = choice ?? String(current.data.step);
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="license-step" maw={760}>
      <Stack gap="xs">
        <Title order={2} size="h5" id="license-step">
          {t('license.stepTitle')}
        </Title>
        {admin ? (
          <Group align="end">
            <Select
              label={t('license.step')}
              w={420}
              allowDeselect={false}
              value={value}
              data={STEPS.map((s) => ({ value: String(s), label: t(`license.step${s}`) }))}
              onChange={setChoice}
            />
            <Button
              disabled={value === String(current.data.step)}
              loading={save.isPending}
              onClick={() => save.mutate(Number(value) as SeatStep)}
            >
              {t('license.save')}
            </Button>
          </Group>
        ) : (
          <Text size="sm" data-testid="license-step">
            {t(`license.step${current.data.step}`)}
          </Text>
        )}
        <ErrorAlert error={save.error} />
      </Stack>
    </Paper>
  );
}

/**
 * The license screen: status, seats per purpose, the seat enforcement step and, for
 * cert-admin, activation by uploading the `.lic` file and re-anchoring a tampered ledger.
 */
export default function LicensePage() {
  const { t } = useI18n();
  const { user } = useSession();
  const status = useLicenseStatus();
  const admin = can(user, 'admin');
  // Kept here: the panel stays to show the outcome once the tamper flag is gone.
  const [reanchored, setReanchored] = useState<ReanchorResult | null>(null);
  if (status.isPending) return <Loading />;
  if (!status.data) return <ErrorAlert error={status.error} />;
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('license.title')}
      </Title>
      <StatusTable status={status.data} />
      <SeatsTable status={status.data} />
      <EnforcementStep admin={admin} />
      {admin && (status.data.tamper || reanchored) && (
        <ReanchorPanel tamper={status.data.tamper} result={reanchored} onResult={setReanchored} />
      )}
      {admin && <ActivatePanel />}
    </Stack>
  );
}

import { Badge, Button, Checkbox, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { can } from '../../access';
import { api, call } from '../../api/client';
import { pathsApiV1DevicesGetParametersQueryPurposeValues as PURPOSES } from '../../api/schema.gen';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { Section } from './Section';
import { useLicenseSeats, type Device, type OverrideMode, type Purpose } from './devices-api';

const MODES: OverrideMode[] = ['inherit', 'allow', 'deny'];

/**
 * Purposes: assigned, override (inherit/allow/deny), what the device may ask for, and the
 * license seats of each purpose with a warning when none (or the last) is left. Administrators
 * change assignments, overrides and the owner; the others read.
 */
export function DevicePurposes({ device }: { device: Device }) {
  const { t } = useI18n();
  const { user } = useSession();
  const isAdmin = can(user, 'admin');
  const queryClient = useQueryClient();
  const license = useLicenseSeats();
  const [assigned, setAssigned] = useState<Set<Purpose>>(new Set(device.assigned_purposes));
  const [modes, setModes] = useState<Record<string, OverrideMode>>(() =>
    Object.fromEntries(PURPOSES.map((p) => [p, device.purpose_overrides[p] ?? 'inherit'])),
  );
  const [owner, setOwner] = useState(device.owner ?? '');
  const path = { params: { path: { serial: device.serial } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['device', device.serial] });
  const save = useMutation({
    mutationFn: async () => {
      const wanted = PURPOSES.filter((p) => assigned.has(p));
      if (wanted.join() !== [...device.assigned_purposes].sort(byOrder).join()) {
        await call(
          api.PUT('/api/v1/devices/{serial}/purposes', { ...path, body: { purposes: wanted } }),
        );
      }
      const changed = Object.fromEntries(
        PURPOSES.filter((p) => modes[p] !== (device.purpose_overrides[p] ?? 'inherit')).map((p) => [
          p,
          modes[p],
        ]),
      );
      if (Object.keys(changed).length > 0) {
        await call(
          api.PUT('/api/v1/devices/{serial}/purpose-overrides', {
            ...path,
            body: { overrides: changed },
          }),
        );
      }
    },
    onSettled: refresh,
  });
  const saveOwner = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/api/v1/devices/{serial}/owner', {
          ...path,
          body: { owner: owner.trim() || null },
        }),
      ),
    onSettled: refresh,
  });
  const seats = new Map((license.data?.purpose_seats ?? []).map((s) => [s.purpose, s]));
  const limited = license.data?.purpose_seats_limited ?? false;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Section title={t('device.purposesTitle')} testId="device-purposes">
      <form onSubmit={submit}>
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('device.purposeColumn')}</Table.Th>
              <Table.Th>{t('device.assigned')}</Table.Th>
              <Table.Th>{t('device.override')}</Table.Th>
              <Table.Th>{t('device.effective')}</Table.Th>
              <Table.Th>{t('device.seats')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PURPOSES.map((p) => {
              const seat = seats.get(p);
              return (
                <Table.Tr key={p} data-testid="purpose-row" data-purpose={p}>
                  <Table.Td>{t(`purpose.${p}`)}</Table.Td>
                  <Table.Td>
                    {isAdmin ? (
                      <Checkbox
                        aria-label={`${t('device.assigned')}: ${t(`purpose.${p}`)}`}
                        checked={assigned.has(p)}
                        onChange={(e) => {
                          const next = new Set(assigned);
                          if (e.currentTarget.checked) next.add(p);
                          else next.delete(p);
                          setAssigned(next);
                        }}
                      />
                    ) : assigned.has(p) ? (
                      t('common.yes')
                    ) : (
                      t('common.no')
                    )}
                  </Table.Td>
                  <Table.Td>
                    {isAdmin ? (
                      <Select
                        aria-label={t('device.overrideOf', { purpose: t(`purpose.${p}`) })}
                        size="xs"
                        w={140}
                        allowDeselect={false}
                        value={modes[p]}
                        data={MODES.map((m) => ({ value: m, label: t(`device.mode.${m}`) }))}
                        onChange={(value) =>
                          setModes({ ...modes, [p]: (value ?? 'inherit') as OverrideMode })
                        }
                      />
                    ) : (
                      t(`device.mode.${device.purpose_overrides[p] ?? 'inherit'}`)
                    )}
                  </Table.Td>
                  <Table.Td>
                    {device.effective_purposes.includes(p) ? t('common.yes') : t('common.no')}
                  </Table.Td>
                  <Table.Td>
                    {!limited || !seat ? (
                      t('device.seatsUnlimited')
                    ) : (
                      <Group gap={4}>
                        <Text size="sm">
                          {t('device.seatsOf', { used: seat.used, bought: seat.bought })}
                        </Text>
                        {seat.free <= 0 ? (
                          <Badge color="red.9" variant="filled" data-testid="seat-warning">
                            {t('device.seatWarning')}
                          </Badge>
                        ) : seat.free === 1 ? (
                          <Badge color="#8a3a00" variant="filled">
                            {t('device.seatLow')}
                          </Badge>
                        ) : null}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        {isAdmin && (
          <Group mt="xs">
            <Button type="submit" size="xs" loading={save.isPending}>
              {t('device.saveOverrides')}
            </Button>
            {save.isSuccess && <Text size="sm">{t('device.saved')}</Text>}
          </Group>
        )}
      </form>
      <ErrorAlert error={save.error} />
      {isAdmin && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            saveOwner.mutate();
          }}
        >
          <Group align="end" gap="xs">
            <TextInput
              label={t('device.ownerLabel')}
              value={owner}
              onChange={(e) => setOwner(e.currentTarget.value)}
              w={320}
            />
            <Button type="submit" size="xs" variant="default" loading={saveOwner.isPending}>
              {t('device.saveOwner')}
            </Button>
          </Group>
          <ErrorAlert error={saveOwner.error} />
        </form>
      )}
    </Section>
  );
}

function byOrder(a: Purpose, b: Purpose): number {
  return PURPOSES.indexOf(a) - PURPOSES.indexOf(b);
}

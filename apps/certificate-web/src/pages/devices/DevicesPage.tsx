import { Anchor, Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { pathsApiV1DevicesGetParametersQueryPurposeValues as PURPOSES } from '../../api/schema.gen';
import { useI18n } from '../../i18n/i18n';
import {
  download,
  readDeviceFilters,
  useDeviceList,
  writeDeviceFilters,
  type Device,
  type DeviceFilters,
  type Purpose,
} from './devices-api';

/** The device list: filters in the URL, pages of 100 ("Load more"); a serial opens the card. */
export default function DevicesPage() {
  const { t, locale } = useI18n();
  const [search, setSearch] = useSearchParams();
  const filters = readDeviceFilters(search);
  const list = useDeviceList(filters);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  // The CSV of the filtered view (the route gives up to 100 000 rows, newest first).
  const csv = useMutation({
    mutationFn: () =>
      download(`/api/v1/devices.csv?${writeDeviceFilters(filters).toString()}`, 'devices.csv'),
  });
  const columns: Column<Device>[] = [
    {
      key: 'serial',
      header: t('devices.serial'),
      cell: (d) => (
        <Anchor component={Link} to={`/devices/${encodeURIComponent(d.serial)}`}>
          {d.serial}
        </Anchor>
      ),
    },
    { key: 'hostname', header: t('devices.hostname'), cell: (d) => d.hostname ?? '' },
    { key: 'owner', header: t('devices.owner'), cell: (d) => d.owner ?? '' },
    {
      key: 'purposes',
      header: t('devices.purposes'),
      cell: (d) => d.assigned_purposes.map((p) => t(`purpose.${p}`)).join(', '),
    },
    {
      key: 'platform',
      header: t('devices.platform'),
      cell: (d) => [d.platform, d.agent_version].filter(Boolean).join(' · '),
    },
    {
      key: 'seen',
      header: t('devices.lastSeen'),
      cell: (d) => (d.last_seen_at ? formatDate(d.last_seen_at, locale) : ''),
    },
    {
      key: 'blocked',
      header: t('devices.blocked'),
      cell: (d) =>
        d.blocked ? (
          <Badge color="red.9" variant="filled">
            {t('devices.blockedBadge')}
          </Badge>
        ) : null,
    },
  ];
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('devices.title')}
      </Title>
      <DeviceFilterBar
        key={search.toString()}
        filters={filters}
        onChange={(next) => setSearch(writeDeviceFilters(next))}
      />
      <Group gap="xs">
        <Text size="sm" data-testid="devices-total">
          {t('devices.total', { shown: rows.length, total })}
        </Text>
        <Button size="xs" variant="default" loading={csv.isPending} onClick={() => csv.mutate()}>
          {t('devices.exportCsv')}
        </Button>
      </Group>
      <ErrorAlert error={list.error ?? csv.error} />
      {list.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('devices.caption')}
          columns={columns}
          rows={rows}
          rowKey={(d) => d.serial}
          rowTestId="device-row"
          hasMore={list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          onMore={() => void list.fetchNextPage()}
        />
      )}
    </Stack>
  );
}

function DeviceFilterBar({
  filters,
  onChange,
}: {
  filters: DeviceFilters;
  onChange(next: DeviceFilters): void;
}) {
  const { t } = useI18n();
  const [serial, setSerial] = useState(filters.serial ?? '');
  const [owner, setOwner] = useState(filters.owner ?? '');
  const [platform, setPlatform] = useState(filters.platform ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({
      ...filters,
      serial: serial.trim() || undefined,
      owner: owner.trim() || undefined,
      platform: platform.trim() || undefined,
    });
  };
  const blocked = filters.blocked === undefined ? 'all' : String(filters.blocked);
  return (
    <form onSubmit={submit} aria-label={t('devices.filters')}>
      <Group align="end" gap="xs">
        <TextInput
          label={t('devices.serial')}
          value={serial}
          onChange={(e) => setSerial(e.currentTarget.value)}
        />
        <TextInput
          label={t('devices.owner')}
          value={owner}
          onChange={(e) => setOwner(e.currentTarget.value)}
        />
        <TextInput
          label={t('devices.platform')}
          w={120}
          value={platform}
          onChange={(e) => setPlatform(e.currentTarget.value)}
        />
        <Select
          label={t('devices.purpose')}
          w={150}
          allowDeselect={false}
          value={filters.purpose ?? 'all'}
          data={[
            { value: 'all', label: t('common.all') },
            ...PURPOSES.map((p) => ({ value: p, label: t(`purpose.${p}`) })),
          ]}
          onChange={(value) =>
            onChange({
              ...filters,
              purpose: value && value !== 'all' ? (value as Purpose) : undefined,
            })
          }
        />
        <Select
          label={t('devices.blocked')}
          w={170}
          allowDeselect={false}
          value={blocked}
          data={[
            { value: 'all', label: t('common.all') },
            { value: 'true', label: t('devices.blockedOnly') },
            { value: 'false', label: t('devices.unblockedOnly') },
          ]}
          onChange={(value) =>
            onChange({
              ...filters,
              blocked: value === 'true' ? true : value === 'false' ? false : undefined,
            })
          }
        />
        <Button type="submit" variant="default">
          {t('common.apply')}
        </Button>
      </Group>
    </form>
  );
}

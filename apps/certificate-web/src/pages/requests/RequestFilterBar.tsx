import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import {
  pathsApiV1RequestsGetParametersQueryPurposeValues as PURPOSES,
  pathsApiV1RequestsGetParametersQueryStatusValues as STATUSES,
} from '../../api/schema.gen';
import { useI18n } from '../../i18n/i18n';
import type { Purpose, RequestFilters } from './request-filters';

/** Status and purpose apply at once; serial and days with Apply (or Enter). */
export function RequestFilterBar({
  filters,
  onChange,
}: {
  filters: RequestFilters;
  onChange(next: RequestFilters): void;
}) {
  const { t } = useI18n();
  const [serial, setSerial] = useState(filters.serial ?? '');
  const [since, setSince] = useState(filters.since ?? '');
  const [until, setUntil] = useState(filters.until ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({
      ...filters,
      serial: serial.trim() || undefined,
      since: since || undefined,
      until: until || undefined,
    });
  };
  return (
    <form onSubmit={submit} aria-label={t('requests.filters')}>
      <Group align="end" gap="xs">
        <Select
          label={t('requests.status')}
          w={150}
          allowDeselect={false}
          value={filters.status}
          data={[
            { value: 'all', label: t('common.all') },
            ...STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
          ]}
          onChange={(value) =>
            onChange({ ...filters, status: (value ?? 'pending') as RequestFilters['status'] })
          }
        />
        <Select
          label={t('requests.purpose')}
          w={150}
          value={filters.purpose ?? 'all'}
          allowDeselect={false}
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
        <TextInput
          label={t('requests.serial')}
          value={serial}
          onChange={(e) => setSerial(e.currentTarget.value)}
        />
        <TextInput
          label={t('requests.since')}
          type="date"
          value={since}
          onChange={(e) => setSince(e.currentTarget.value)}
        />
        <TextInput
          label={t('requests.until')}
          type="date"
          value={until}
          onChange={(e) => setUntil(e.currentTarget.value)}
        />
        <Button type="submit" variant="default">
          {t('common.apply')}
        </Button>
      </Group>
    </form>
  );
}

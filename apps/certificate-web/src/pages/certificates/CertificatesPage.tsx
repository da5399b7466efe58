import { Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useI18n } from '../../i18n/i18n';
import {
  PURPOSES,
  readCertificateFilters,
  STATUSES,
  writeCertificateFilters,
  type CertificateFilters,
} from './certificates-api';
import { CertificateTable } from './CertificateTable';

/** Certificates: search by serial start, device, subject/user, purpose and status (in the URL). */
export default function CertificatesPage() {
  const { t } = useI18n();
  const [search, setSearch] = useSearchParams();
  const filters = readCertificateFilters(search);
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('certificates.title')}
      </Title>
      <CertificateFilterBar
        key={search.toString()}
        filters={filters}
        onChange={(next) => setSearch(writeCertificateFilters(next))}
      />
      <CertificateTable filters={filters} />
    </Stack>
  );
}

function CertificateFilterBar({
  filters,
  onChange,
}: {
  filters: CertificateFilters;
  onChange(next: CertificateFilters): void;
}) {
  const { t } = useI18n();
  const [serial, setSerial] = useState(filters.serial ?? '');
  const [device, setDevice] = useState(filters.device ?? '');
  const [subject, setSubject] = useState(filters.subject ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({
      ...filters,
      serial: serial.trim() || undefined,
      device: device.trim() || undefined,
      subject: subject.trim() || undefined,
    });
  };
  return (
    <form onSubmit={submit} aria-label={t('certificates.filters')}>
      <Group align="end" gap="xs">
        <TextInput
          label={t('certificates.serial')}
          value={serial}
          onChange={(e) => setSerial(e.currentTarget.value)}
        />
        <TextInput
          label={t('certificates.device')}
          value={device}
          onChange={(e) => setDevice(e.currentTarget.value)}
        />
        <TextInput
          label={t('certificates.subject')}
          value={subject}
          onChange={(e) => setSubject(e.currentTarget.value)}
        />
        <Select
          label={t('certificates.purpose')}
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
              purpose:
                value && value !== 'all' ? (value as CertificateFilters['purpose']) : undefined,
            })
          }
        />
        <Select
          label={t('certificates.status')}
          w={150}
          allowDeselect={false}
          value={filters.status ?? 'all'}
          data={[
            { value: 'all', label: t('common.all') },
            ...STATUSES.map((s) => ({ value: s, label: t(`certificates.status.${s}`) })),
          ]}
          onChange={(value) =>
            onChange({
              ...filters,
              status:
                value && value !== 'all' ? (value as CertificateFilters['status']) : undefined,
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

import { Button, Group, Stack, TextInput } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { addAllowlistEntry, removeAllowlistEntry, useCorpAllowlist } from './settings-api';

type Entry = Schemas['CorpAllowlistEntryDto'];

/** The corporate device allowlist (cert-admin only: reading it is an administrator's too). */
export function AllowlistPanel() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const list = useCorpAllowlist();
  const [serial, setSerial] = useState('');
  const [note, setNote] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['settings', 'corp-allowlist'] });
  const add = useMutation({
    mutationFn: () => addAllowlistEntry(serial.trim(), note),
    onSuccess: async () => {
      setSerial('');
      setNote('');
      await refresh();
    },
  });
  const remove = useMutation({ mutationFn: removeAllowlistEntry, onSuccess: refresh });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  const columns: Column<Entry>[] = [
    { key: 'serial', header: t('settings.serial'), cell: (e) => e.serial },
    { key: 'note', header: t('settings.note'), cell: (e) => e.note ?? '' },
    {
      key: 'added',
      header: t('settings.added'),
      cell: (e) => `${formatDate(e.added_at, locale)} · ${e.added_by}`,
    },
    {
      key: 'actions',
      header: t('settings.actions'),
      cell: (e) => (
        <Button
          size="xs"
          variant="outline"
          color="red.9"
          aria-label={t('settings.removeSerial', { serial: e.serial })}
          onClick={() => remove.mutate(e.serial)}
        >
          {t('settings.remove')}
        </Button>
      ),
    },
  ];
  return (
    <Stack gap="xs">
      <form onSubmit={submit} aria-label={t('settings.allowlistAdd')}>
        <Group align="end">
          <TextInput
            label={t('settings.serial')}
            required
            value={serial}
            onChange={(e) => setSerial(e.currentTarget.value)}
          />
          <TextInput
            label={t('settings.note')}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          <Button type="submit" variant="default" loading={add.isPending} disabled={!serial.trim()}>
            {t('settings.allowlistAdd')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={add.error ?? remove.error ?? list.error} />
      {list.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('settings.allowlistCaption')}
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(e) => e.serial}
          rowTestId="allowlist-row"
        />
      )}
    </Stack>
  );
}

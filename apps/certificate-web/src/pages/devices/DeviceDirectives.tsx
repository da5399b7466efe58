import { Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { ErrorAlert, formatDate } from '@platform/web-ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, callVoid } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { Section } from './Section';

type DirectivePurpose = 'user_mtls' | 'ad_logon';

/**
 * Issuance directives of the device (cert-admin only, reading included): address a user
 * purpose to a person (UPN for AD logon), list them with their state, cancel a pending one.
 */
export function DeviceDirectives({ serial }: { serial: string }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [purpose, setPurpose] = useState<DirectivePurpose>('user_mtls');
  const [person, setPerson] = useState('');
  const [upn, setUpn] = useState('');
  const list = useQuery({
    queryKey: ['device', serial, 'directives'],
    queryFn: () =>
      call(
        api.GET('/api/v1/devices/{serial}/issuance-directives', { params: { path: { serial } } }),
      ),
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: ['device', serial, 'directives'] });
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/devices/{serial}/issuance-directives', {
          params: { path: { serial } },
          body: { purpose, user: person.trim(), ...(upn.trim() ? { upn: upn.trim() } : {}) },
        }),
      ),
    onSuccess: () => {
      setPerson('');
      setUpn('');
    },
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: (id: string) =>
      callVoid(api.DELETE('/api/v1/admin/issuance-directives/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const items = list.data?.items ?? [];
  return (
    <Section title={t('device.directivesTitle')} testId="device-directives">
      <form onSubmit={submit}>
        <Group align="end" gap="xs">
          <Select
            label={t('device.directivePurpose')}
            w={150}
            allowDeselect={false}
            value={purpose}
            data={(['user_mtls', 'ad_logon'] as const).map((p) => ({
              value: p,
              label: t(`purpose.${p}`),
            }))}
            onChange={(value) => setPurpose((value ?? 'user_mtls') as DirectivePurpose)}
          />
          <TextInput
            label={t('device.directiveUser')}
            value={person}
            onChange={(e) => setPerson(e.currentTarget.value)}
          />
          <TextInput
            label={t('device.directiveUpn')}
            value={upn}
            onChange={(e) => setUpn(e.currentTarget.value)}
          />
          <Button type="submit" size="xs" loading={create.isPending}>
            {t('device.directiveCreate')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={list.error ?? create.error ?? cancel.error} />
      {list.isSuccess && items.length === 0 && <Text size="sm">{t('device.directivesNone')}</Text>}
      {items.length > 0 && (
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('requests.created')}</Table.Th>
              <Table.Th>{t('device.directivePurpose')}</Table.Th>
              <Table.Th>{t('device.directiveUser')}</Table.Th>
              <Table.Th>{t('device.directiveState')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.id} data-testid="directive-row">
                <Table.Td>{formatDate(d.created_at, locale)}</Table.Td>
                <Table.Td>{t(`purpose.${d.purpose}`)}</Table.Td>
                <Table.Td>{[d.user, d.upn].filter(Boolean).join(' · ')}</Table.Td>
                <Table.Td>
                  {t(`device.directive.${d.state}`)}
                  {d.message ? ` — ${d.message}` : ''}
                </Table.Td>
                <Table.Td>
                  {(d.state === 'pending' || d.state === 'delivered') && (
                    <Button
                      size="xs"
                      variant="outline"
                      color="red.9"
                      onClick={() => cancel.mutate(d.id)}
                    >
                      {t('device.directiveCancel')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

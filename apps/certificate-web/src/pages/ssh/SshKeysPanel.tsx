import { Badge, Button, Group, Modal, Select, Stack, TextInput, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import {
  approveSshKey,
  fetchSshKeys,
  revokeSshKey,
  SSH_KEY_STATES,
  type SshKey,
  type SshKeyFilters,
  type SshKeyState,
} from './ssh-api';

const STATE_COLOR: Record<SshKeyState, string> = {
  pending: '#8a3a00',
  active: '#1b5e20',
  revoked: '#b71c1c',
  rejected: '#495057',
};

function RevokeDialog({ sshKey, onClose }: { sshKey: SshKey; onClose(): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const revoke = useMutation({
    mutationFn: () => revokeSshKey(sshKey.id, reason.trim()),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['ssh', 'keys'] });
      onClose();
    },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('ssh.revokeTitle', { fingerprint: sshKey.fingerprint })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <TextInput
          label={t('ssh.reason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          data-autofocus
        />
        <ErrorAlert error={revoke.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="red.9" loading={revoke.isPending} onClick={() => revoke.mutate()}>
            {sshKey.state === 'pending' ? t('ssh.reject') : t('ssh.revoke')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The fleet's registered SSH keys (cert-admin): filters, approve a pending key, revoke. */
export function SshKeysPanel() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<SshKeyFilters>({});
  const [filters, setFilters] = useState<SshKeyFilters>({});
  const [revoking, setRevoking] = useState<SshKey | null>(null);
  const keys = useInfiniteQuery({
    queryKey: ['ssh', 'keys', filters],
    queryFn: ({ pageParam }) => fetchSshKeys(filters, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });
  const approve = useMutation({
    mutationFn: approveSshKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ssh', 'keys'] }),
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({
      state: draft.state || undefined,
      serial: draft.serial?.trim() || undefined,
      owner: draft.owner?.trim() || undefined,
    });
  };
  const columns: Column<SshKey>[] = [
    { key: 'fingerprint', header: t('ssh.fingerprint'), cell: (k) => k.fingerprint },
    { key: 'type', header: t('ssh.keyType'), cell: (k) => k.key_type },
    { key: 'serial', header: t('ssh.serial'), cell: (k) => k.serial ?? '—' },
    { key: 'owner', header: t('ssh.owner'), cell: (k) => k.owner ?? '—' },
    {
      key: 'state',
      header: t('ssh.state'),
      cell: (k) => (
        <Badge variant="filled" color={STATE_COLOR[k.state]} data-testid="ssh-key-state">
          {lookUp(t, 'ssh.keyState', k.state)}
        </Badge>
      ),
    },
    { key: 'created', header: t('ssh.created'), cell: (k) => formatDate(k.created_at, locale) },
    {
      key: 'actions',
      header: t('ssh.actions'),
      cell: (k) => (
        <Group gap={4} wrap="nowrap">
          {k.state === 'pending' && (
            <Button
              size="xs"
              variant="default"
              aria-label={t('ssh.approveKey', { fingerprint: k.fingerprint })}
              onClick={() => approve.mutate(k.id)}
            >
              {t('ssh.approve')}
            </Button>
          )}
          {(k.state === 'pending' || k.state === 'active') && (
            <Button
              size="xs"
              color="red.9"
              variant="light"
              aria-label={t('ssh.revokeKey', { fingerprint: k.fingerprint })}
              onClick={() => setRevoking(k)}
            >
              {k.state === 'pending' ? t('ssh.reject') : t('ssh.revoke')}
            </Button>
          )}
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="ssh-keys">
      <Title order={2} size="h4" id="ssh-keys">
        {t('ssh.keys')}
      </Title>
      <form onSubmit={apply}>
        <Group align="flex-end" gap="xs">
          <Select
            label={t('ssh.state')}
            data={[
              { value: '', label: t('common.all') },
              ...SSH_KEY_STATES.map((s) => ({ value: s, label: lookUp(t, 'ssh.keyState', s) })),
            ]}
            value={draft.state ?? ''}
            onChange={(v) => setDraft({ ...draft, state: (v || undefined) as SshKeyState })}
            allowDeselect={false}
            w={160}
          />
          <TextInput
            label={t('ssh.serial')}
            value={draft.serial ?? ''}
            onChange={(e) => setDraft({ ...draft, serial: e.currentTarget.value })}
          />
          <TextInput
            label={t('ssh.owner')}
            value={draft.owner ?? ''}
            onChange={(e) => setDraft({ ...draft, owner: e.currentTarget.value })}
          />
          <Button type="submit" variant="default">
            {t('common.apply')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={keys.error ?? approve.error} />
      {keys.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('ssh.keysCaption', { total: keys.data?.pages[0]?.total ?? 0 })}
          columns={columns}
          rows={keys.data?.pages.flatMap((p) => p.items) ?? []}
          rowKey={(k) => k.id}
          rowTestId="ssh-key-row"
          hasMore={keys.hasNextPage}
          loadingMore={keys.isFetchingNextPage}
          onMore={() => void keys.fetchNextPage()}
        />
      )}
      {revoking && <RevokeDialog sshKey={revoking} onClose={() => setRevoking(null)} />}
    </Stack>
  );
}

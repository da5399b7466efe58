import { ErrorAlert, OneTimeSecret } from '@platform/web-ui';
import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, callVoid, type Schemas } from '../../api/client';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';

type CallbackKey = Schemas['CallbackKeyDto'];

const KEYS = ['callback-keys'];

const STATE_COLOR: Record<CallbackKey['state'], string> = {
  active: '#1e6b30',
  rotating: '#735600',
  expired: 'gray.8',
  retired: 'red.9',
};

function NewKey({ onCreated }: { onCreated(key: CallbackKey): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState<string | null>(null);
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
  });
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/admin/scanner-callback-keys', {
          body: { name, ...(projectId ? { project_id: projectId } : {}) },
        }),
      ),
    onSuccess: (key) => {
      setName('');
      setProjectId(null);
      onCreated(key);
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
  return (
    <form
      aria-label={t('callbackKeys.new')}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Stack gap={4}>
        <Group align="end" gap="xs">
          <TextInput
            size="xs"
            required
            label={t('common.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Select
            size="xs"
            w={260}
            clearable
            clearButtonProps={{ 'aria-label': t('common.clear') }}
            searchable
            label={t('callbackKeys.project')}
            data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            value={projectId}
            onChange={setProjectId}
          />
          <Button size="xs" type="submit" loading={create.isPending}>
            {t('callbackKeys.new')}
          </Button>
        </Group>
        <ErrorAlert error={create.error ?? projects.error} />
      </Stack>
    </form>
  );
}

/** Rotation: a successor with a new secret; the old key stays valid for the chosen hours. */
function RotateKey({
  target,
  onClose,
  onRotated,
}: {
  target: CallbackKey;
  onClose(): void;
  onRotated(key: CallbackKey): void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [hours, setHours] = useState<number>(24);
  const rotate = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/admin/scanner-callback-keys/{id}/rotate', {
          params: { path: { id: target.id } },
          body: { window_hours: hours },
        }),
      ),
    onSuccess: (key) => {
      onRotated(key);
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('callbackKeys.rotateKey', { key: target.key_id })}>
      <form
        aria-label={t('callbackKeys.rotateKey', { key: target.key_id })}
        onSubmit={(e) => {
          e.preventDefault();
          rotate.mutate();
        }}
      >
        <Stack gap="xs">
          <NumberInput
            size="xs"
            w={220}
            min={1}
            max={2160}
            required
            label={t('callbackKeys.windowHours')}
            value={hours}
            onChange={(v) => setHours(typeof v === 'number' ? v : Number(v) || 1)}
          />
          <ErrorAlert error={rotate.error} />
          <Group justify="end">
            <Button size="xs" variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button size="xs" type="submit" loading={rotate.isPending}>
              {t('callbackKeys.rotate')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RetireKey({ target, onClose }: { target: CallbackKey; onClose(): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const retire = useMutation({
    mutationFn: () =>
      callVoid(
        api.DELETE('/api/v1/admin/scanner-callback-keys/{id}', {
          params: { path: { id: target.id } },
        }),
      ),
    onSuccess: () => {
      onClose();
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('callbackKeys.retireTitle', { key: target.key_id })}>
      <Stack gap="xs">
        <Text size="sm">{t('callbackKeys.retireText')}</Text>
        <ErrorAlert error={retire.error} />
        <Group justify="end">
          <Button size="xs" variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            size="xs"
            color="red.9"
            loading={retire.isPending}
            onClick={() => retire.mutate()}
          >
            {t('callbackKeys.retire')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The scanners' callback keys (administrators): the list with each key's state (never its
 * secret), a new key whose secret is shown once, rotation with a window, retirement confirmed.
 */
export default function CallbackKeysPage() {
  const { t, locale } = useI18n();
  const keys = useQuery({
    queryKey: KEYS,
    queryFn: () => call(api.GET('/api/v1/admin/scanner-callback-keys')),
  });
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
  });
  const [shown, setShown] = useState<CallbackKey>();
  const [rotating, setRotating] = useState<CallbackKey>();
  const [retiring, setRetiring] = useState<CallbackKey>();
  const projectName = (id: string | null) =>
    id === null
      ? t('callbackKeys.anyProject')
      : (projects.data?.find((p) => p.id === id)?.name ?? id);
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('callbackKeys.title')}
      </Title>
      <Text size="sm">{t('callbackKeys.hint')}</Text>
      <Paper withBorder p="xs">
        <NewKey onCreated={setShown} />
      </Paper>
      {shown?.secret && (
        <OneTimeSecret
          label={t('callbackKeys.secretOf', { key: shown.key_id })}
          secret={shown.secret}
          onDone={() => setShown(undefined)}
        />
      )}
      <ErrorAlert error={keys.error} />
      {keys.isSuccess && keys.data.length === 0 && <Text size="sm">{t('callbackKeys.empty')}</Text>}
      {keys.isSuccess && keys.data.length > 0 && (
        <Table fz="sm" withTableBorder striped data-testid="callback-keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('common.name')}</Table.Th>
              <Table.Th>{t('callbackKeys.keyId')}</Table.Th>
              <Table.Th>{t('findings.project')}</Table.Th>
              <Table.Th>{t('common.state')}</Table.Th>
              <Table.Th>{t('common.created')}</Table.Th>
              <Table.Th>{t('callbackKeys.validUntil')}</Table.Th>
              <Table.Th>{t('callbackKeys.lastUsed')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.data.map((k) => (
              <Table.Tr
                key={k.id}
                data-testid="callback-key"
                data-key-id={k.key_id}
                data-state={k.state}
              >
                <Table.Td>{k.name}</Table.Td>
                <Table.Td ff="monospace">{k.key_id}</Table.Td>
                <Table.Td>{projectName(k.project_id)}</Table.Td>
                <Table.Td>
                  <Badge size="sm" variant="filled" color={STATE_COLOR[k.state]}>
                    {lookUp(t, 'callbackKeys.state', k.state)}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDate(k.created_at, locale)}</Table.Td>
                <Table.Td>{formatDate(k.expires_at ?? k.retired_at, locale)}</Table.Td>
                <Table.Td>{formatDate(k.last_used_at, locale)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {k.state === 'active' && (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={t('callbackKeys.rotateKey', { key: k.key_id })}
                        onClick={() => setRotating(k)}
                      >
                        {t('callbackKeys.rotate')}
                      </Button>
                    )}
                    {k.state !== 'retired' && k.state !== 'expired' && (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={t('callbackKeys.retireTitle', { key: k.key_id })}
                        onClick={() => setRetiring(k)}
                      >
                        {t('callbackKeys.retire')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {rotating && (
        <RotateKey
          target={rotating}
          onClose={() => setRotating(undefined)}
          onRotated={(key) => {
            setRotating(undefined);
            setShown(key);
          }}
        />
      )}
      {retiring && <RetireKey target={retiring} onClose={() => setRetiring(undefined)} />}
    </Stack>
  );
}

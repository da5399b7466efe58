import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PluginSettingsForm, type SettingsValues } from '../../components/PluginSettingsForm';
import { useI18n } from '../../i18n/i18n';

type Marketplace = Schemas['PluginMarketplaceDto'];
type Installed = Schemas['InstalledPluginDto'];
type CatalogEntry = Schemas['CatalogEntryDto'];

function AddMarketplace() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/admin/plugin-marketplaces', {
          body: {
            name,
            catalog_url: url,
            is_active: true,
            ...(key.trim() ? { public_key: key } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setUrl('');
      setKey('');
      void queryClient.invalidateQueries({ queryKey: ['marketplaces'] });
    },
  });
  return (
    <form
      aria-label={t('plugins.addMarketplace')}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Stack gap="xs">
        <Group align="end" gap="xs">
          <TextInput
            size="xs"
            required
            label={t('common.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            size="xs"
            w={360}
            required
            label={t('plugins.catalogUrl')}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
        </Group>
        <Textarea
          size="xs"
          autosize
          minRows={2}
          label={t('plugins.publicKey')}
          description={t('plugins.publicKeyHint')}
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
        />
        <ErrorAlert error={create.error} />
        <Group>
          <Button size="xs" type="submit" loading={create.isPending}>
            {t('plugins.addMarketplace')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Granting native execution asks for an explicit confirmation; withdrawing does not. */
function NativeToggle({ marketplace }: { marketplace: Marketplace }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const set = useMutation({
    mutationFn: (allows: boolean) =>
      call(
        api.PUT('/api/v1/admin/plugin-marketplaces/{id}', {
          params: { path: { id: marketplace.id } },
          body: { allows_native: allows },
        }),
      ),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['marketplaces'] });
    },
  });
  return (
    <>
      <Checkbox
        size="xs"
        label={t('plugins.allowsNative')}
        checked={marketplace.allows_native}
        onChange={(e) => (e.currentTarget.checked ? setConfirming(true) : set.mutate(false))}
      />
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('plugins.grantNativeTitle')}
      >
        <Stack gap="sm">
          <Text size="sm">{t('plugins.grantNativeText', { name: marketplace.name })}</Text>
          <ErrorAlert error={set.error} />
          <Group justify="flex-end">
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              size="xs"
              color="red.9"
              onClick={() => set.mutate(true)}
              loading={set.isPending}
            >
              {t('plugins.grantNative')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function CatalogRow({ marketplace, entry }: { marketplace: Marketplace; entry: CatalogEntry }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const versions = entry.available_versions ?? [];
  const [version, setVersion] = useState<string | null>(entry.latest_version);
  const install = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/admin/installed-plugins', {
          body: {
            source_type: 'marketplace',
            marketplace_id: marketplace.id,
            catalog_plugin_id: entry.id,
            runtime: entry.runtime,
            ...(version ? { version } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['installed-plugins'] });
      void queryClient.invalidateQueries({ queryKey: ['catalog', marketplace.id] });
    },
  });
  return (
    <Table.Tr data-testid={`catalog-${entry.id}`}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {entry.name}
        </Text>
        <Text size="xs">{entry.description}</Text>
      </Table.Td>
      <Table.Td>
        <Badge size="sm" variant="outline" color="dark">
          {entry.runtime}
        </Badge>
      </Table.Td>
      <Table.Td>{entry.capabilities.join(', ')}</Table.Td>
      <Table.Td>
        <Select
          size="xs"
          w={150}
          aria-label={`${t('plugins.version')} ${entry.id}`}
          data={versions.map((v) => ({
            value: v.version,
            label: `${v.version}${v.revoked ? ' (revoked)' : v.compatible ? '' : ' (incompatible)'}`,
            disabled: v.revoked || !v.compatible,
          }))}
          value={version}
          onChange={setVersion}
        />
      </Table.Td>
      <Table.Td>
        {entry.installed_version ? (
          <Text size="sm">
            {t('plugins.installedVersion', { version: entry.installed_version })}
          </Text>
        ) : (
          <Button size="xs" onClick={() => install.mutate()} loading={install.isPending}>
            {t('plugins.install')}
          </Button>
        )}
        <ErrorAlert error={install.error} />
      </Table.Td>
    </Table.Tr>
  );
}

function Catalog({ marketplace }: { marketplace: Marketplace }) {
  const { t } = useI18n();
  const catalog = useQuery({
    queryKey: ['catalog', marketplace.id],
    queryFn: () =>
      call(
        api.GET('/api/v1/admin/plugin-marketplaces/{id}/catalog', {
          params: { path: { id: marketplace.id } },
        }),
      ),
  });
  return (
    <Stack gap={4}>
      <ErrorAlert error={catalog.error} />
      {catalog.data && (
        <Text size="xs">
          {catalog.data.signed ? t('plugins.catalogSigned') : t('plugins.catalogUnsigned')}
        </Text>
      )}
      <Table fz="sm" withTableBorder>
        <Table.Tbody>
          {(catalog.data?.plugins ?? []).map((entry) => (
            <CatalogRow key={entry.id} marketplace={marketplace} entry={entry} />
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** The plugin's installation settings (its non-per-project ones); secrets are write-only. */
function SettingsForm({ plugin }: { plugin: Installed }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: ({ settings, secrets }: SettingsValues) =>
      call(
        api.PUT('/api/v1/admin/installed-plugins/{id}', {
          params: { path: { id: plugin.id } },
          body: { settings, secret_settings: secrets },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['installed-plugins'] }),
  });
  return (
    <PluginSettingsForm
      label={`${t('plugins.settings')} ${plugin.catalog_plugin_id}`}
      schema={(plugin.settings_schema ?? []).filter((s) => !s.per_project)}
      stored={plugin.settings}
      secretsSet={plugin.secret_settings_set ?? []}
      onSave={(values) => save.mutate(values)}
      saving={save.isPending}
      error={save.error}
    />
  );
}

function InstalledRow({ plugin }: { plugin: Installed }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['installed-plugins'] });
  const path = { params: { path: { id: plugin.id } } };
  const toggle = useMutation({
    mutationFn: () =>
      plugin.enabled
        ? call(api.POST('/api/v1/admin/installed-plugins/{id}/disable', path))
        : call(api.POST('/api/v1/admin/installed-plugins/{id}/enable', path)),
    onSuccess: refresh,
  });
  const acknowledge = useMutation({
    mutationFn: () =>
      call(api.POST('/api/v1/admin/installed-plugins/{id}/acknowledge-capability-change', path)),
    onSuccess: refresh,
  });
  return (
    <Paper withBorder p="xs" data-testid={`installed-${plugin.catalog_plugin_id}`}>
      <Stack gap={4}>
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={600}>{plugin.catalog_plugin_id}</Text>
            <Text size="sm">{plugin.version}</Text>
            <Badge
              size="sm"
              variant="filled"
              color={plugin.enabled ? '#1e6b30' : 'gray.8'}
              data-testid="plugin-state"
            >
              {plugin.enabled ? t('plugins.enabled') : t('plugins.disabled')}
            </Badge>
          </Group>
          <Button
            size="xs"
            variant="default"
            onClick={() => toggle.mutate()}
            loading={toggle.isPending}
          >
            {plugin.enabled ? t('plugins.disable') : t('plugins.enable')}
          </Button>
        </Group>
        <Text size="xs">{plugin.capabilities.join(', ')}</Text>
        {plugin.pending_version && (
          <Group gap="xs">
            <Text size="sm">
              {t('plugins.pending', {
                version: plugin.pending_version.version,
                added: plugin.pending_version.added_capabilities.join(', '),
              })}
            </Text>
            <Button size="xs" onClick={() => acknowledge.mutate()} loading={acknowledge.isPending}>
              {t('plugins.acknowledge')}
            </Button>
          </Group>
        )}
        <ErrorAlert error={toggle.error ?? acknowledge.error} />
        <SettingsForm key={`${plugin.updated_at}`} plugin={plugin} />
      </Stack>
    </Paper>
  );
}

/** Plugin administration (administrators): sources, their catalogs, installed plugins. */
export default function PluginsPage() {
  const { t } = useI18n();
  const marketplaces = useQuery({
    queryKey: ['marketplaces'],
    queryFn: () => call(api.GET('/api/v1/admin/plugin-marketplaces')),
  });
  const installed = useQuery({
    queryKey: ['installed-plugins'],
    queryFn: () => call(api.GET('/api/v1/admin/installed-plugins')),
  });
  const [open, setOpen] = useState<string>();
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('nav.plugins')}
      </Title>
      <Title order={2} size="h5">
        {t('plugins.installed')}
      </Title>
      <ErrorAlert error={installed.error} />
      {(installed.data ?? []).map((p) => (
        <InstalledRow key={p.id} plugin={p} />
      ))}
      <Title order={2} size="h5">
        {t('plugins.marketplaces')}
      </Title>
      <ErrorAlert error={marketplaces.error} />
      {(marketplaces.data ?? []).map((m) => (
        <Paper key={m.id} withBorder p="xs" data-testid={`marketplace-${m.name}`}>
          <Stack gap={4}>
            <Group justify="space-between">
              <Group gap="xs">
                <Text fw={600}>{m.name}</Text>
                <Text size="xs">{m.catalog_url}</Text>
                <Badge size="sm" variant="outline" color="dark">
                  {m.signed ? t('plugins.signed') : t('plugins.unsigned')}
                </Badge>
              </Group>
              <Group gap="xs">
                <NativeToggle marketplace={m} />
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setOpen(open === m.id ? undefined : m.id)}
                >
                  {t('plugins.browse')}
                </Button>
              </Group>
            </Group>
            {open === m.id && <Catalog marketplace={m} />}
          </Stack>
        </Paper>
      ))}
      <Paper withBorder p="xs">
        <AddMarketplace />
      </Paper>
    </Stack>
  );
}

import { ErrorAlert } from '@platform/web-ui';
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';
import {
  PluginSettingsForm,
  type SettingField,
  type SettingsValues,
} from '../../components/PluginSettingsForm';
import { useI18n } from '../../i18n/i18n';
import { ChannelDeliveries, ChannelDeliverySummary } from './ChannelDeliveries';

type Channel = Schemas['ProjectChannelDto'];

/** Settings every channel has per project (docs/plugins/channels.md), before the channel's own. */
const COMMON: SettingField[] = [
  { name: 'enabled', type: 'boolean', required: false, secret: false, per_project: true },
  { name: 'min_severity', type: 'severity', required: false, secret: false, per_project: true },
  { name: 'notify_on_close', type: 'boolean', required: false, secret: false, per_project: true },
  {
    name: 'fixed_min_severity',
    type: 'severity',
    required: false,
    secret: false,
    per_project: true,
  },
];

function ChannelForm({ projectId, channel }: { projectId: string; channel: Channel }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const key = ['channel-config', projectId, channel.plugin_id];
  const path = { params: { path: { id: projectId, plugin_id: channel.plugin_id } } };
  const config = useQuery({
    queryKey: key,
    queryFn: () => call(api.GET('/api/v1/projects/{id}/plugin-channels/{plugin_id}/config', path)),
  });
  const save = useMutation({
    mutationFn: ({ settings, secrets }: SettingsValues) =>
      call(
        api.PUT('/api/v1/projects/{id}/plugin-channels/{plugin_id}/config', {
          ...path,
          body: { settings: { ...settings, ...secrets } },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      void queryClient.invalidateQueries({ queryKey: ['project-channels', projectId] });
    },
  });
  return (
    <Paper withBorder p="xs" data-testid={`channel-${channel.catalog_plugin_id}`}>
      <Stack gap={4}>
        <Group gap="xs">
          <Text fw={600}>{channel.catalog_plugin_id}</Text>
          <Text size="sm">{channel.version}</Text>
          <Badge size="sm" variant="outline" color="dark" data-testid="channel-state">
            {channel.configured
              ? channel.enabled
                ? t('channels.on')
                : t('channels.off')
              : t('channels.notConfigured')}
          </Badge>
        </Group>
        <ChannelDeliverySummary summary={channel.delivery} />
        <ErrorAlert error={config.error} />
        {config.data && (
          <PluginSettingsForm
            key={JSON.stringify(config.data)}
            label={`${t('channels.settings')} ${channel.catalog_plugin_id}`}
            schema={[...COMMON, ...channel.settings_schema]}
            stored={config.data.settings}
            secretsSet={config.data.secret_settings_set}
            onSave={(values) => save.mutate(values)}
            saving={save.isPending}
            error={save.error}
          >
            {save.isSuccess && (
              <Text size="sm" c="#1e6b30" data-testid="channel-saved">
                {t('projects.saved')}
              </Text>
            )}
          </PluginSettingsForm>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The project's notification channels: each enabled channel plugin with its per-project
 * settings and its deliveries (counts, last failure), then the failed deliveries with Retry
 * for project admins. Everyone in the project reads them; saving needs `manage_notifications` (the API
 * decides and its localized error is shown).
 */
export function ProjectChannels({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const channels = useQuery({
    queryKey: ['project-channels', projectId],
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/plugin-channels', { params: { path: { id: projectId } } }),
      ),
  });
  return (
    <Paper withBorder p="xs">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('channels.title')}
        </Title>
        <ErrorAlert error={channels.error} />
        {channels.data?.length === 0 && <Text size="sm">{t('channels.none')}</Text>}
        {(channels.data ?? []).map((c) => (
          <ChannelForm key={c.plugin_id} projectId={projectId} channel={c} />
        ))}
        {(channels.data?.length ?? 0) > 0 && <ChannelDeliveries projectId={projectId} />}
      </Stack>
    </Paper>
  );
}

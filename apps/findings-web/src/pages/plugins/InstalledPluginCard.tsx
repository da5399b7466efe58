import { ErrorAlert } from '@platform/web-ui';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import {
  useAcknowledgeCapabilityChange,
  useSetPluginEnabled,
  type InstalledPlugin,
} from './api/installed-plugins';
import { InstalledPluginSettings } from './InstalledPluginSettings';

/** An installed plugin: state and switch, a held capability change to acknowledge, settings. */
export function InstalledPluginCard({ plugin }: { plugin: InstalledPlugin }) {
  const { t } = useI18n();
  const toggle = useSetPluginEnabled(plugin.id);
  const acknowledge = useAcknowledgeCapabilityChange(plugin.id);
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
            onClick={() => toggle.mutate(!plugin.enabled)}
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
        <InstalledPluginSettings key={`${plugin.updated_at}`} plugin={plugin} />
      </Stack>
    </Paper>
  );
}

import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import type { PluginSource } from './api/plugin-sources';
import { Catalog } from './Catalog';
import { NativeToggle } from './NativeToggle';

/** A catalog source: name, URL, signed or not, native execution, and its catalog when open. */
export function MarketplaceCard({
  marketplace,
  open,
  onBrowse,
}: {
  marketplace: PluginSource;
  open: boolean;
  onBrowse: () => void;
}) {
  const { t } = useI18n();
  return (
    <Paper withBorder p="xs" data-testid={`marketplace-${marketplace.name}`}>
      <Stack gap={4}>
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={600}>{marketplace.name}</Text>
            <Text size="xs">{marketplace.catalog_url}</Text>
            <Badge size="sm" variant="outline" color="dark">
              {marketplace.signed ? t('plugins.signed') : t('plugins.unsigned')}
            </Badge>
          </Group>
          <Group gap="xs">
            <NativeToggle marketplace={marketplace} />
            <Button size="xs" variant="default" onClick={onBrowse}>
              {t('plugins.browse')}
            </Button>
          </Group>
        </Group>
        {open && <Catalog marketplace={marketplace} />}
      </Stack>
    </Paper>
  );
}

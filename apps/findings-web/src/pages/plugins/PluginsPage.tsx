import { ErrorAlert } from '@platform/web-ui';
import { Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { AddMarketplace } from './AddMarketplace';
import { useInstalledPlugins } from './api/installed-plugins';
import { usePluginSources } from './api/plugin-sources';
import { InstalledPluginCard } from './InstalledPluginCard';
import { MarketplaceCard } from './MarketplaceCard';

/** Plugin administration (administrators): sources, their catalogs, installed plugins. */
export default function PluginsPage() {
  const { t } = useI18n();
  const marketplaces = usePluginSources();
  const installed = useInstalledPlugins();
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
        <InstalledPluginCard key={p.id} plugin={p} />
      ))}
      <Title order={2} size="h5">
        {t('plugins.marketplaces')}
      </Title>
      <ErrorAlert error={marketplaces.error} />
      {(marketplaces.data ?? []).map((m) => (
        <MarketplaceCard
          key={m.id}
          marketplace={m}
          open={open === m.id}
          onBrowse={() => setOpen(open === m.id ? undefined : m.id)}
        />
      ))}
      <Paper withBorder p="xs">
        <AddMarketplace />
      </Paper>
    </Stack>
  );
}

import { ErrorAlert } from '@platform/web-ui';
import { Badge, Button, Select, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { useInstallPlugin } from './api/installed-plugins';
import type { CatalogEntry, PluginSource } from './api/plugin-sources';

/** One plugin of a catalog: its versions (revoked and incompatible ones not selectable), install. */
export function CatalogRow({
  marketplace,
  entry,
}: {
  marketplace: PluginSource;
  entry: CatalogEntry;
}) {
  const { t } = useI18n();
  const versions = entry.available_versions ?? [];
  const [version, setVersion] = useState<string | null>(entry.latest_version);
  const install = useInstallPlugin(marketplace.id);
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
          <Button
            size="xs"
            onClick={() => install.mutate({ entry, version })}
            loading={install.isPending}
          >
            {t('plugins.install')}
          </Button>
        )}
        <ErrorAlert error={install.error} />
      </Table.Td>
    </Table.Tr>
  );
}

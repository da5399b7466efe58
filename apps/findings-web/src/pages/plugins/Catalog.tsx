import { ErrorAlert } from '@platform/web-ui';
import { Stack, Table, Text } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import { useSourceCatalog, type PluginSource } from './api/plugin-sources';
import { CatalogRow } from './CatalogRow';

/** A source's catalog as the API verified it now (signed or not). */
export function Catalog({ marketplace }: { marketplace: PluginSource }) {
  const { t } = useI18n();
  const catalog = useSourceCatalog(marketplace.id);
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

import { Table, Text } from '@mantine/core';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';

/** One value of a source: a time localized, an object or list as compact JSON, text as it is. */
function SourceValue({ name, value }: { name: string; value: unknown }) {
  const { locale } = useI18n();
  if (value === null || value === undefined || value === '') return <>—</>;
  if (typeof value === 'string' && name.endsWith('_at')) return <>{formatDate(value, locale)}</>;
  if (typeof value === 'object') return <code>{JSON.stringify(value)}</code>;
  return <>{String(value)}</>;
}

/**
 * What each scanner reported, as a table: one column per scanner, one row per field (the
 * fields any of them has, in a fixed order first).
 */
export function FindingSources({ sources }: { sources: Record<string, unknown> }) {
  const { t } = useI18n();
  const scanners = Object.entries(sources).map(
    ([name, value]) =>
      [
        name,
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {},
      ] as const,
  );
  const first = ['scanner_version', 'scanned_at', 'rule_id', 'cve', 'score', 'description'];
  const fields = [
    ...first,
    ...new Set(scanners.flatMap(([, s]) => Object.keys(s)).filter((k) => k !== 'scanner')),
  ].filter((field, i, all) => all.indexOf(field) === i && scanners.some(([, s]) => field in s));
  if (scanners.length === 0) return <Text size="sm">—</Text>;
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table withTableBorder withColumnBorders fz="xs" data-testid="sources" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={140}>{t('source.field')}</Table.Th>
            {scanners.map(([name]) => (
              <Table.Th key={name} scope="col">
                {name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => (
            <Table.Tr key={field} data-field={field}>
              <Table.Th scope="row">{lookUp(t, 'source', field)}</Table.Th>
              {scanners.map(([name, source]) => (
                <Table.Td key={name} style={{ whiteSpace: 'pre-wrap' }}>
                  <SourceValue name={field} value={source[field]} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

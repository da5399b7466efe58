import { Badge, CloseButton, Group, Paper, Table, Text, Title } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import type { BulkRow, CertificateRequest } from './requests-api';

/** One row's outcome in words: done (issued, at the CA, rejected) or the refusal's reason. */
export function Outcome({ row }: { row: BulkRow }) {
  const { t } = useI18n();
  if (row.status === 'error') {
    const code = row.error ?? 'error';
    return (
      <Group gap={6} wrap="nowrap">
        <Badge color="red.9" variant="filled" data-testid="outcome-error">
          {code}
        </Badge>
        <span>{lookUp(t, 'requests.error', code)}</span>
      </Group>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color="#1b5e20" variant="filled" data-testid="outcome-done">
        {lookUp(t, 'requests.result', row.status)}
      </Badge>
      {'serial' in row && row.serial && (
        <span>{t('requests.certificateSerial', { serial: row.serial })}</span>
      )}
    </Group>
  );
}

/** Rows the results table shows at most (thousands of rows would slow the page down). */
export const RESULT_ROWS_SHOWN = 1000;

/**
 * The results of the last bulk approve or reject, a row per request, refusals first; of a
 * very large batch the first RESULT_ROWS_SHOWN rows (the summary counts them all).
 */
export function BulkResults({
  rows,
  requests,
  onClose,
}: {
  rows: BulkRow[];
  requests: ReadonlyMap<string, CertificateRequest>;
  onClose(): void;
}) {
  const { t } = useI18n();
  const failed = rows.filter((r) => r.status === 'error').length;
  const ordered = [...rows]
    .sort((a, b) => Number(b.status === 'error') - Number(a.status === 'error'))
    .slice(0, RESULT_ROWS_SHOWN);
  return (
    <Paper withBorder p="sm" component="section" aria-label={t('requests.outcome')}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" data-testid="bulk-summary">
          {t('requests.resultsTitle', { ok: rows.length - failed, failed })}
        </Title>
        <CloseButton aria-label={t('common.close')} onClick={onClose} />
      </Group>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('requests.serial')}</Table.Th>
            <Table.Th>{t('requests.purpose')}</Table.Th>
            <Table.Th>{t('requests.outcome')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ordered.map((row) => {
            const request = requests.get(row.request_id);
            return (
              <Table.Tr
                key={row.request_id}
                data-testid="bulk-result"
                data-request-id={row.request_id}
                data-outcome={row.status === 'error' ? (row.error ?? 'error') : row.status}
              >
                <Table.Td>{request?.serial ?? row.request_id}</Table.Td>
                <Table.Td>{request ? t(`purpose.${request.purpose}`) : '—'}</Table.Td>
                <Table.Td>
                  <Outcome row={row} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {rows.length > ordered.length && (
        <Text size="sm" mt="xs">
          {t('requests.resultsShown', { shown: ordered.length, total: rows.length })}
        </Text>
      )}
    </Paper>
  );
}

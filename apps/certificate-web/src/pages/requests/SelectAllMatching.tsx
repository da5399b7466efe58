import { Button, Text } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import type { CertificateRequest } from './requests-api';
import type { RequestFilters } from './request-filters';
import { fetchAllMatching } from './select-all';

/**
 * "Select all N matching" as mail clients have it: the queue shows pages of 100, and this
 * selects every pending request the filter matches (read page by page from the list route),
 * for the bulk approve or reject that follows. Offered on the pending view while fewer than
 * all are selected; "Clear selection" once something is.
 */
export function SelectAllMatching({
  filters,
  total,
  selectedCount,
  disabled,
  onSelect,
  onClear,
}: {
  filters: RequestFilters;
  /** The filtered list's count (pending view: the pending requests that match). */
  total: number;
  selectedCount: number;
  disabled: boolean;
  onSelect(requests: CertificateRequest[]): void;
  onClear(): void;
}) {
  const { t } = useI18n();
  const [reading, setReading] = useState<{ read: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const select = async () => {
    setError(null);
    setReading({ read: 0, total });
    try {
      onSelect(await fetchAllMatching(filters, (read, all) => setReading({ read, total: all })));
    } catch (failure) {
      setError(failure);
    } finally {
      setReading(null);
    }
  };
  return (
    <>
      {filters.status === 'pending' && total > 0 && selectedCount < total && (
        <Button
          size="xs"
          variant="default"
          disabled={disabled || reading !== null}
          loading={reading !== null}
          onClick={() => void select()}
        >
          {t('requests.selectAllMatching', { total })}
        </Button>
      )}
      {reading && (
        <Text size="sm" role="status" data-testid="select-all-progress">
          {t('requests.selectingMatching', { read: reading.read, total: reading.total })}
        </Text>
      )}
      {selectedCount > 0 && (
        <Button size="xs" variant="default" disabled={disabled} onClick={onClear}>
          {t('requests.clearSelection')}
        </Button>
      )}
      <ErrorAlert error={error} />
    </>
  );
}

import { ErrorAlert } from '@platform/web-ui';
import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { SeverityBadge, StatusBadge } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { useMergeFindings, useSelectedFindings } from './api/finding-merge';

/**
 * "Merge…" of the list's selection: the person picks the survivor (it keeps its record and
 * gains the sources of the others); the others are merged into it. Findings of one product only:
 * the dialog says so before the API would refuse (422 merge_products_differ).
 */
export function MergeDialog({
  ids,
  onClose,
  onDone,
}: {
  ids: string[];
  onClose(): void;
  onDone(message: string): void;
}) {
  const { t } = useI18n();
  const findings = useSelectedFindings(ids);
  const [survivor, setSurvivor] = useState<string | null>(null);
  const merge = useMergeFindings();
  const rows = findings.flatMap((q) => (q.data ? [q.data] : []));
  const loading = findings.some((q) => q.isPending);
  const products = new Set(rows.map((f) => f.product_id));
  const merged = rows.filter((f) => f.merged_into_id);
  const problem =
    products.size > 1
      ? t('merge.productsDiffer')
      : merged.length > 0
        ? t('merge.alreadyMerged')
        : null;
  const submit = () => {
    if (!survivor) return;
    merge.mutate(
      { survivor_id: survivor, finding_ids: ids.filter((id) => id !== survivor) },
      { onSuccess: (r) => onDone(t('merge.done', { n: r.merged_ids.length })) },
    );
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('merge.title', { n: ids.length })}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.cancel') }}
    >
      <Stack gap="sm" data-testid="merge-dialog">
        <Text size="sm">{t('merge.explain')}</Text>
        {loading && <Text size="sm">{t('common.loading')}</Text>}
        {problem && (
          <Alert color="orange" data-testid="merge-problem">
            {problem}
          </Alert>
        )}
        <Radio.Group
          label={t('merge.survivor')}
          value={survivor}
          onChange={setSurvivor}
          name="merge-survivor"
        >
          <Stack gap={6} mt={4}>
            {rows.map((f) => (
              <Radio
                key={f.id}
                value={f.id}
                data-testid="merge-survivor-option"
                label={
                  <Group gap={6} wrap="nowrap">
                    <SeverityBadge severity={f.severity} />
                    <StatusBadge status={f.status} />
                    <Text size="sm">{f.title}</Text>
                  </Group>
                }
              />
            ))}
          </Stack>
        </Radio.Group>
        <ErrorAlert error={merge.error ?? findings.find((q) => q.error)?.error ?? null} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={submit}
            loading={merge.isPending}
            disabled={!survivor || ids.length < 2 || problem !== null}
            data-testid="merge-submit"
          >
            {t('merge.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

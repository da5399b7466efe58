import { Button, Group, Paper, Select, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { STATUSES, api, call, type FindingStatus } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../i18n/i18n';
import { endOfDay, isoDay } from './day-input';
import { RiskUntilInput } from './RiskUntilInput';

// A bulk change never targets waiting (it needs a per-finding reason and date).
const BULK_STATUSES = STATUSES.filter((s) => s !== 'waiting');

function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function BulkBar({ ids, onDone }: { ids: string[]; onDone(message: string): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [add, setAdd] = useState('');
  const [remove, setRemove] = useState('');
  const [status, setStatus] = useState<FindingStatus | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const done = (r: { matched: number; changed: number }) => {
    void queryClient.invalidateQueries({ queryKey: ['findings'] });
    onDone(t('findings.bulkDone', { changed: r.changed, matched: r.matched }));
  };
  const tags = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/findings/bulk-tags', {
          body: { finding_ids: ids, add: splitTags(add), remove: splitTags(remove) },
        }),
      ),
    onSuccess: done,
  });
  const bulkStatus = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/findings/bulk-status', {
          body: {
            finding_ids: ids,
            status: status ?? 'in_progress',
            ...(status === 'risk_accepted' && riskUntil
              ? { risk_accepted_until: endOfDay(riskUntil) }
              : {}),
          },
        }),
      ),
    onSuccess: done,
  });
  return (
    <Paper withBorder p="xs" data-testid="bulk-bar">
      <Group align="end" gap="xs">
        <Text size="sm" fw={600}>
          {t('findings.selected', { n: ids.length })}
        </Text>
        <TextInput
          size="xs"
          label={t('findings.bulkAddTags')}
          value={add}
          onChange={(e) => setAdd(e.currentTarget.value)}
        />
        <TextInput
          size="xs"
          label={t('findings.bulkRemoveTags')}
          value={remove}
          onChange={(e) => setRemove(e.currentTarget.value)}
        />
        <Button
          size="xs"
          onClick={() => tags.mutate()}
          loading={tags.isPending}
          disabled={!add && !remove}
        >
          {t('findings.bulkTags')}
        </Button>
        <Select
          size="xs"
          w={180}
          label={t('findings.bulkStatus')}
          data={BULK_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={status}
          onChange={(v) => setStatus(v as FindingStatus | null)}
        />
        {status === 'risk_accepted' && <RiskUntilInput value={riskUntil} onChange={setRiskUntil} />}
        <Button
          size="xs"
          onClick={() => bulkStatus.mutate()}
          loading={bulkStatus.isPending}
          disabled={!status}
        >
          {t('common.apply')}
        </Button>
      </Group>
      <ErrorAlert error={tags.error ?? bulkStatus.error} />
    </Paper>
  );
}

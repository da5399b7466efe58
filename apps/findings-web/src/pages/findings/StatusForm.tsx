import { Button, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { STATUSES, api, call, type Finding, type FindingStatus } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../i18n/i18n';
import { endOfDay, isoDay } from './day-input';
import { RiskUntilInput } from './RiskUntilInput';

/** A status change with the fields each target state requires. */
export function StatusForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<FindingStatus | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const [reason, setReason] = useState('');
  const [waitingUntil, setWaitingUntil] = useState(isoDay(7));
  const [comment, setComment] = useState('');
  const change = useMutation({
    mutationFn: () => {
      const target = status ?? finding.status;
      return call(
        api.PATCH('/api/v1/findings/{id}', {
          params: { path: { id: finding.id } },
          body: {
            status: target,
            ...(target === 'risk_accepted' ? { risk_accepted_until: endOfDay(riskUntil) } : {}),
            ...(target === 'waiting'
              ? {
                  waiting_reason: reason,
                  waiting_until: new Date(`${waitingUntil}T12:00:00`).toISOString(),
                }
              : {}),
            ...(comment ? { comment } : {}),
          },
        }),
      );
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(['finding', finding.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['finding-actions', finding.id] });
      void queryClient.invalidateQueries({ queryKey: ['findings'] });
      setStatus(null);
      setComment('');
    },
  });
  const waitingTooFar = status === 'waiting' && waitingUntil > isoDay(30);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t('finding.changeStatus')}>
      <Stack gap="xs">
        <Select
          size="xs"
          label={t('finding.targetStatus')}
          data={STATUSES.filter((s) => s !== finding.status).map((s) => ({
            value: s,
            label: t(`status.${s}`),
          }))}
          value={status}
          onChange={(v) => setStatus(v as FindingStatus | null)}
        />
        {status === 'risk_accepted' && <RiskUntilInput value={riskUntil} onChange={setRiskUntil} />}
        {status === 'waiting' && (
          <>
            <TextInput
              size="xs"
              required
              label={t('finding.waitingReason')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <TextInput
              size="xs"
              type="date"
              required
              label={t('finding.waitingUntil')}
              min={isoDay(0)}
              max={isoDay(30)}
              value={waitingUntil}
              onChange={(e) => setWaitingUntil(e.currentTarget.value)}
              error={waitingTooFar ? t('finding.waitingTooFar') : undefined}
            />
          </>
        )}
        <Textarea
          size="xs"
          label={t('finding.comment')}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
        <ErrorAlert error={change.error} />
        <Button
          size="xs"
          type="submit"
          disabled={!status || waitingTooFar}
          loading={change.isPending}
        >
          {t('finding.changeStatus')}
        </Button>
      </Stack>
    </form>
  );
}

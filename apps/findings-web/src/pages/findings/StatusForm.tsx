import { Button, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { MANUAL_STATUSES, type Finding, type FindingStatus } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { required, useFieldErrors } from '../../components/field-checks';
import { useI18n } from '../../i18n/i18n';
import { useUpdateFinding } from './api/findings';
import { DayInput } from './DayInput';
import { endOfDay, isoDay } from './day-input';
import { RiskUntilInput } from './RiskUntilInput';

type Field = 'status' | 'riskUntil' | 'reason' | 'waitingUntil';

/**
 * A status change with the fields each target state requires, checked here before it is
 * sent (messages under the fields); `renewed` is never offered (only an import sets it).
 */
export function StatusForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<FindingStatus | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const [reason, setReason] = useState('');
  const [waitingUntil, setWaitingUntil] = useState(isoDay(7));
  const [comment, setComment] = useState('');
  const { errors, check, clear } = useFieldErrors<Field>();
  const change = useUpdateFinding(finding.id, () => {
    setStatus(null);
    setComment('');
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = status ?? finding.status;
    const ok = check({
      status: !status && t('validation.required'),
      riskUntil:
        target === 'risk_accepted' &&
        (required(t, riskUntil) ?? (riskUntil < isoDay(1) && t('validation.dayFromTomorrow'))),
      reason: target === 'waiting' && required(t, reason),
      waitingUntil:
        target === 'waiting' &&
        (required(t, waitingUntil) ??
          ((waitingUntil < isoDay(0) || waitingUntil > isoDay(30)) && t('finding.waitingTooFar'))),
    });
    if (!ok) return;
    change.mutate({
      status: target,
      ...(target === 'risk_accepted' ? { risk_accepted_until: endOfDay(riskUntil) } : {}),
      ...(target === 'waiting'
        ? {
            waiting_reason: reason,
            waiting_until: new Date(`${waitingUntil}T12:00:00`).toISOString(),
          }
        : {}),
      ...(comment ? { comment } : {}),
    });
  };
  return (
    <form onSubmit={submit} aria-label={t('finding.changeStatus')} noValidate>
      <Stack gap="xs">
        <Select
          size="xs"
          label={t('finding.targetStatus')}
          data={MANUAL_STATUSES.filter((s) => s !== finding.status).map((s) => ({
            value: s,
            label: t(`status.${s}`),
          }))}
          value={status}
          onChange={(v) => {
            setStatus(v as FindingStatus | null);
            clear('status');
          }}
          error={errors.status}
        />
        {status === 'risk_accepted' && (
          <RiskUntilInput
            value={riskUntil}
            onChange={(day) => {
              setRiskUntil(day);
              clear('riskUntil');
            }}
            error={errors.riskUntil}
          />
        )}
        {status === 'waiting' && (
          <>
            <TextInput
              size="xs"
              required
              label={t('finding.waitingReason')}
              value={reason}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                clear('reason');
              }}
              error={errors.reason}
            />
            <DayInput
              required
              label={t('finding.waitingUntil')}
              minDate={isoDay(0)}
              maxDate={isoDay(30)}
              value={waitingUntil}
              onChange={(day) => {
                setWaitingUntil(day);
                clear('waitingUntil');
              }}
              error={errors.waitingUntil}
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
        <Button size="xs" type="submit" loading={change.isPending}>
          {t('finding.changeStatus')}
        </Button>
      </Stack>
    </form>
  );
}

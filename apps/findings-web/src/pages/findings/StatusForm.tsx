import { ErrorAlert } from '@platform/web-ui';
import { Button, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { MANUAL_STATUSES, type Finding, type ManualStatus } from '../../api/client';
import { required, useFieldErrors } from '../../components/field-checks';
import { useI18n } from '../../i18n/i18n';
import { useUpdateFinding } from './api/findings';
import { DayInput } from './DayInput';
import { endOfDay, isoDay } from './day-input';
import { JUSTIFIED, justificationProblem } from './justification';
import { RiskUntilInput } from './RiskUntilInput';

type Field = 'status' | 'riskUntil' | 'reason' | 'waitingUntil' | 'justification';

/**
 * A status change with the fields each target state requires, checked here before it is
 * sent (messages under the fields); `renewed` is never offered (only an import sets it).
 */
export function StatusForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<ManualStatus | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const [reason, setReason] = useState('');
  const [waitingUntil, setWaitingUntil] = useState(isoDay(7));
  const [justification, setJustification] = useState('');
  const { errors, check, clear } = useFieldErrors<Field>();
  const change = useUpdateFinding(finding.id, () => {
    setStatus(null);
    setJustification('');
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = status;
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
      justification: justificationProblem(t, target, justification),
    });
    if (!ok || !target) return;
    change.mutate({
      status: target,
      ...(target === 'risk_accepted' ? { risk_accepted_until: endOfDay(riskUntil) } : {}),
      ...(target === 'waiting'
        ? {
            waiting_reason: reason,
            waiting_until: new Date(`${waitingUntil}T12:00:00`).toISOString(),
          }
        : {}),
      ...(justification.trim() ? { justification: justification.trim() } : {}),
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
            setStatus(v as ManualStatus | null);
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
          label={t('finding.justification')}
          description={
            status && JUSTIFIED.has(status) ? t('finding.justificationNeeded') : undefined
          }
          withAsterisk={status !== null && JUSTIFIED.has(status)}
          autosize
          minRows={2}
          value={justification}
          onChange={(e) => {
            setJustification(e.currentTarget.value);
            clear('justification');
          }}
          error={errors.justification}
        />
        <ErrorAlert error={change.error} />
        <Button size="xs" type="submit" loading={change.isPending}>
          {t('finding.changeStatus')}
        </Button>
      </Stack>
    </form>
  );
}

import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { MANUAL_STATUSES, type ManualStatus } from '../../api/client';
import { useFieldErrors, required } from '../../components/field-checks';
import { useI18n } from '../../i18n/i18n';
import { endOfDay, isoDay } from './day-input';
import { JUSTIFIED, justificationProblem } from './justification';
import { RiskUntilInput } from './RiskUntilInput';

export type GroupStatus = Exclude<ManualStatus, 'waiting'>;
/** A group change never targets waiting (a per-finding reason and date), nor renewed. */
export const GROUP_STATUSES = MANUAL_STATUSES.filter((s): s is GroupStatus => s !== 'waiting');

export interface GroupStatusChange {
  status: GroupStatus;
  risk_accepted_until?: string;
  justification?: string;
}

/**
 * The state, the review date (risk_accepted) and the justification (decisions) of a change
 * applied to many findings at once — the bulk bar's selection, a finding's group — with their
 * checks before anything is sent.
 */
export function BulkStatusFields({
  label,
  statuses = GROUP_STATUSES,
  pending,
  onApply,
  testId,
}: {
  label: string;
  statuses?: readonly GroupStatus[];
  pending: boolean;
  onApply(change: GroupStatusChange): void;
  testId?: string;
}) {
  const { t } = useI18n();
  const [status, setStatus] = useState<GroupStatus | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const [justification, setJustification] = useState('');
  const { errors, check, clear } = useFieldErrors<'riskUntil' | 'justification'>();
  const apply = () => {
    if (!status) return;
    const ok = check({
      riskUntil:
        status === 'risk_accepted' &&
        (required(t, riskUntil) ?? (riskUntil < isoDay(1) && t('validation.dayFromTomorrow'))),
      justification: justificationProblem(t, status, justification),
    });
    if (!ok) return;
    onApply({
      status,
      ...(status === 'risk_accepted' ? { risk_accepted_until: endOfDay(riskUntil) } : {}),
      ...(JUSTIFIED.has(status) ? { justification: justification.trim() } : {}),
    });
  };
  return (
    <Group align="end" gap="xs" data-testid={testId}>
      <Select
        size="xs"
        w={180}
        label={label}
        data={statuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        value={status}
        onChange={(v) => setStatus(v as GroupStatus | null)}
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
      {status && JUSTIFIED.has(status) && (
        <TextInput
          size="xs"
          w={240}
          withAsterisk
          label={t('finding.justification')}
          value={justification}
          onChange={(e) => {
            setJustification(e.currentTarget.value);
            clear('justification');
          }}
          error={errors.justification}
        />
      )}
      <Button size="xs" onClick={apply} loading={pending} disabled={!status}>
        {t('common.apply')}
      </Button>
    </Group>
  );
}

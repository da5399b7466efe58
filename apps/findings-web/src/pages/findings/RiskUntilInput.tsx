import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n';
import { DayInput } from './DayInput';
import { isoDay } from './day-input';

/** The review date a risk acceptance requires: a day from tomorrow on. */
export function RiskUntilInput({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange(day: string): void;
  error?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <DayInput
      required
      label={t('finding.riskUntil')}
      minDate={isoDay(1)}
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}

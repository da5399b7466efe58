import { TextInput } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import { isoDay } from './day-input';

/** The review date a risk acceptance requires: a day from tomorrow on. */
export function RiskUntilInput({
  value,
  onChange,
}: {
  value: string;
  onChange(day: string): void;
}) {
  const { t } = useI18n();
  return (
    <TextInput
      size="xs"
      type="date"
      required
      label={t('finding.riskUntil')}
      min={isoDay(1)}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

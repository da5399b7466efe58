import { DAY_PICKER_FORMAT } from '@platform/web-ui';
import { DateInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n';
import { parseTypedDay } from './day-input';

/**
 * A day picker in the UI language and the one date format of the UI (`25/11/2026`,
 * `25.11.2026`): typed or picked from the calendar; `value` is `YYYY-MM-DD`. Its limits and
 * messages are the form's own (shown inline), never the browser's.
 */
export function DayInput({
  label,
  value,
  onChange,
  minDate,
  maxDate,
  error,
  required,
}: {
  label: string;
  value: string;
  onChange(day: string): void;
  minDate?: string;
  maxDate?: string;
  error?: ReactNode;
  required?: boolean;
}) {
  const { locale } = useI18n();
  return (
    <DateInput
      size="xs"
      label={label}
      value={value || null}
      onChange={(day) => onChange(day ?? '')}
      valueFormat={DAY_PICKER_FORMAT[locale]}
      placeholder={DAY_PICKER_FORMAT[locale].toLowerCase()}
      locale={locale}
      dateParser={parseTypedDay}
      minDate={minDate}
      maxDate={maxDate}
      error={error}
      required={required}
      popoverProps={{ withinPortal: true }}
    />
  );
}

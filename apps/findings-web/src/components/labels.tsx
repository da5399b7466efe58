import { Badge } from '@mantine/core';
import type { FindingStatus, Severity } from '../api/client';
import { useI18n } from '../i18n/i18n';

// Filled badges with dark shades: white text keeps WCAG AA contrast.
const SEVERITY_COLOR: Record<Severity, string> = {
  CRITICAL: '#a51d2d',
  HIGH: '#a63b00',
  MEDIUM: '#735600',
  LOW: '#1864ab',
  INFO: '#495057',
};

export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <Badge size="sm" color={SEVERITY_COLOR[severity]} variant="filled">
      {severity}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: FindingStatus }) {
  const { t } = useI18n();
  return (
    <Badge size="sm" variant="outline" color="dark">
      {t(`status.${status}`)}
    </Badge>
  );
}

export function formatDate(value: string | null | undefined, locale: string): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(locale === 'ru' ? 'ru-RU' : 'en-GB', {
    dateStyle: 'short',
    timeStyle: 'short',
  });
}

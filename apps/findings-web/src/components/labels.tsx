import { Badge } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
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

/**
 * A severity in the UI language: a filled pill (app.css `.badge`, Mantine's small badge in plain
 * HTML — a list draws hundreds, and a Mantine Badge costs several components each). The badge
 * never cuts its label.
 */
export function SeverityBadge({ severity }: { severity: Severity }) {
  const { t } = useI18n();
  return (
    <span
      className="badge"
      data-variant="filled"
      data-severity={severity}
      style={{ '--badge-fill': SEVERITY_COLOR[severity] } as CSSProperties}
    >
      {t(`severity.${severity}`)}
    </span>
  );
}

/** A state in the UI language, an outlined pill in its own case. */
export function StatusBadge({ status }: { status: FindingStatus }) {
  const { t } = useI18n();
  return (
    <span className="badge" data-variant="outline" data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}

/**
 * A tag as it is stored (no case change), dark text on a light chip (contrast above 7:1):
 * `tone` tells manual (outlined) from read-only report and enrichment tags (filled light).
 */
export function TagChip({
  name,
  tone,
  rightSection,
}: {
  name: string;
  tone: 'manual' | 'read-only';
  rightSection?: ReactNode;
}) {
  return (
    <Badge
      size="sm"
      tt="none"
      variant={tone === 'manual' ? 'outline' : 'light'}
      color={tone === 'manual' ? 'dark' : 'gray'}
      c="dark.9"
      bg={tone === 'manual' ? undefined : 'gray.2'}
      rightSection={rightSection}
      data-testid="tag"
    >
      <span data-testid="tag-name">{name}</span>
    </Badge>
  );
}

export { formatDate, formatDay } from '@platform/web-ui';

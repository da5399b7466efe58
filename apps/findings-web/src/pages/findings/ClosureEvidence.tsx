import { List, Stack, Text } from '@mantine/core';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import type { ClosureEvidence as Evidence } from './auto-closure-text';

/**
 * Why a finding was closed automatically, in words: how many consecutive scans missed it, the
 * covering reports (by id: the UI has no report page), and the scanner's confirmation.
 */
export function ClosureEvidence({ evidence }: { evidence: Evidence }) {
  const { t, locale } = useI18n();
  const c = evidence.confirmation;
  return (
    <Stack gap={2} data-testid="closure-evidence">
      {evidence.checks !== null && (
        <Text size="xs" data-testid="evidence-checks">
          {t('autoClosure.evidenceChecks', {
            checks: evidence.checks,
            required: evidence.requiredChecks ?? '—',
          })}
        </Text>
      )}
      {evidence.reports.length > 0 && (
        <>
          <Text size="xs">{t('autoClosure.evidenceReports')}</Text>
          <List size="xs" type="ordered" data-testid="evidence-reports">
            {evidence.reports.map((report) => (
              <List.Item key={report} ff="monospace" data-testid="evidence-report">
                {report}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {c && (
        <Text size="xs" data-testid="evidence-confirmation">
          {t('autoClosure.evidenceConfirmation', {
            result: c.result ? lookUp(t, 'verdict', c.result) : '—',
            at: formatDate(c.at, locale),
            key: c.keyId ?? '—',
          })}
          {c.origin ? ` (${lookUp(t, 'autoClosure.origin', c.origin)})` : ''}
        </Text>
      )}
    </Stack>
  );
}

import { Stack, Text } from '@mantine/core';
import type { FindingStatus, Schemas } from '../../api/client';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { actorText } from './people';

type Decision = Schemas['StatusDecisionDto'];

/**
 * The decision that put the finding into its status: which, who, when and why; for an accepted
 * risk also until when.
 */
export function StatusDecision({
  decision,
  riskAcceptedUntil,
}: {
  decision: Decision | null | undefined;
  riskAcceptedUntil: string | null | undefined;
}) {
  const { t, locale } = useI18n();
  if (!decision && !riskAcceptedUntil) return null;
  return (
    <Stack gap={2} data-testid="status-decision">
      {riskAcceptedUntil && (
        <Text size="sm" data-testid="risk-accepted-until">
          {t('finding.riskAcceptedUntil', { at: formatDate(riskAcceptedUntil, locale) })}
        </Text>
      )}
      {decision && (
        <>
          <Text size="sm" data-testid="decision-by">
            {t('finding.decisionBy', {
              status: t(`status.${decision.status as FindingStatus}`),
              who: actorText(decision.actor, t('finding.actionAutomatic')),
              at: formatDate(decision.at, locale),
            })}
          </Text>
          {decision.justification && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="decision-justification">
              {t('finding.justification')}: {decision.justification}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

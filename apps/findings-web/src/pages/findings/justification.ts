import type { FindingStatus } from '../../api/client';
import type { Translate } from '../../i18n/i18n';

/** The decisions that need a reason (the API refuses them without one: justification_required). */
export const JUSTIFIED: ReadonlySet<FindingStatus> = new Set<FindingStatus>([
  'risk_accepted',
  'false_positive',
  'wont_fix',
]);
export const JUSTIFICATION_MAX = 4000;

/** The inline check of a justification: required for the decisions above, at most 4000 characters. */
export function justificationProblem(
  t: Translate,
  status: FindingStatus | null,
  text: string,
): string | undefined {
  if (status && JUSTIFIED.has(status) && text.trim() === '')
    return t('finding.justificationRequired');
  if (text.length > JUSTIFICATION_MAX) return t('validation.maxLength', { max: JUSTIFICATION_MAX });
  return undefined;
}

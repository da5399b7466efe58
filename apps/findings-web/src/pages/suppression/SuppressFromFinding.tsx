import { Anchor, Badge, Button, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import type { Finding } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { newRuleHref, ruleTextFor } from './suppression-query';

/**
 * The finding page's suppression panel: the rule that suppresses it, if any, and "Suppress
 * similar": the project's rules screen with a rule pre-filled from the finding's scanner, rule
 * and file (previewed before it is saved).
 */
export function SuppressFromFinding({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const rule = finding.suppression_rule;
  const rulesHref = `/projects/${finding.project_id}/suppression`;
  return (
    <Stack gap="xs" data-testid="finding-suppression">
      <Title order={2} size="h5">
        {t('suppression.panel')}
      </Title>
      {rule ? (
        <Text size="sm">
          <Badge color="dark" variant="filled" mr={6}>
            {t('suppression.suppressedBadge')}
          </Badge>
          <Anchor component={Link} to={rulesHref} size="sm">
            {rule.name ?? rule.id}
          </Anchor>
        </Text>
      ) : (
        <Text size="sm">{t('suppression.notSuppressed')}</Text>
      )}
      <Button
        size="xs"
        variant="default"
        onClick={() =>
          void navigate(
            newRuleHref(
              finding.project_id,
              t('suppression.similarName', { rule: finding.rule_id }),
              ruleTextFor(finding),
            ),
          )
        }
      >
        {t('suppression.suppressSimilar')}
      </Button>
    </Stack>
  );
}

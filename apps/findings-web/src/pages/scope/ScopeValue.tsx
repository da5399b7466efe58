import { Code, Stack, Text } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';

/**
 * A perimeter value for people: the Unicode form, and the stored ASCII (punycode) form below it
 * when they differ (an internationalized name is shown both ways).
 */
export function ScopeValue({ value, unicode }: { value: string; unicode: string }) {
  const { t } = useI18n();
  return (
    <Stack gap={0}>
      <Text size="sm" data-testid="scope-value">
        {unicode}
      </Text>
      {unicode !== value && (
        <Text size="xs" c="#495057" data-testid="scope-value-ascii">
          {t('scope.ascii')} <Code>{value}</Code>
        </Text>
      )}
    </Stack>
  );
}

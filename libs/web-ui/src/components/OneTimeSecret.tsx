import { Button, Code, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import type { WebUiMessageKey } from '../core/messages';
import { useI18nOf } from '../i18n';

/**
 * A secret the API returns only in the answer that made it (a callback key, an endpoint's
 * signing secret): shown with a copy button and a plain warning until the person says it is
 * stored; nothing keeps it afterwards.
 */
export function OneTimeSecret({
  label,
  secret,
  onDone,
}: {
  label: string;
  secret: string;
  onDone(): void;
}) {
  const { t } = useI18nOf<WebUiMessageKey>();
  return (
    <Paper
      withBorder
      p="xs"
      role="region"
      aria-label={label}
      data-testid="one-time-secret"
      style={{ borderColor: 'var(--mantine-color-red-9)' }}
    >
      <Stack gap={4}>
        <Text size="sm" fw={700}>
          {t('secret.title')}: {label}
        </Text>
        <Text size="sm" c="red.9">
          {t('secret.warning')}
        </Text>
        <Code block data-testid="secret-value">
          {secret}
        </Code>
        <Group gap="xs">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? t('secret.copied') : t('secret.copy')}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" onClick={onDone}>
            {t('secret.done')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

import { Alert, Stack, Title } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';

/** Plugin administration arrives with the marketplace API (not in the shipped contract yet). */
export default function PluginsPage() {
  const { t } = useI18n();
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('nav.plugins')}
      </Title>
      <Alert color="gray.8" variant="filled">
        {t('plugins.unavailable')}
      </Alert>
    </Stack>
  );
}

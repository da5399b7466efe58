import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { AllowlistPanel } from './AllowlistPanel';
import { CorpOwnershipPanel } from './CorpOwnershipPanel';
import { SourceAuthPanel } from './SourceAuthPanel';
import { SystemSettingsPanel } from './SystemSettingsPanel';

function Section({
  id,
  title,
  text,
  children,
}: {
  id: string;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={id} data-testid={id}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <Text size="sm">{text}</Text>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * Settings: the enroll source-auth step and the corp-ownership policy (every admin role reads
 * them, cert-admin changes them); system settings and the corporate allowlist only for
 * cert-admin (the service refuses their reading to the other roles).
 */
export default function SettingsPage() {
  const { t } = useI18n();
  const { user } = useSession();
  const admin = can(user, 'admin');
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('settings.title')}
      </Title>
      {!admin && (
        <Text size="sm" data-testid="settings-read-only">
          {t('settings.readOnly')}
        </Text>
      )}
      <Section
        id="settings-source-auth"
        title={t('settings.sourceAuthTitle')}
        text={t('settings.sourceAuthText')}
      >
        <SourceAuthPanel admin={admin} />
      </Section>
      <Section id="settings-corp" title={t('settings.corpTitle')} text={t('settings.corpText')}>
        <CorpOwnershipPanel admin={admin} />
        {admin && <AllowlistPanel />}
      </Section>
      {admin && (
        <Section
          id="settings-system"
          title={t('settings.systemTitle')}
          text={t('settings.systemText')}
        >
          <SystemSettingsPanel />
        </Section>
      )}
    </Stack>
  );
}

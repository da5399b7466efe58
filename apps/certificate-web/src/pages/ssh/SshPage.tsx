import { Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert, Loading } from '@platform/web-ui';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { AliasesPanel } from './AliasesPanel';
import { KeyholderTokensPanel } from './KeyholderTokensPanel';
import { SshKeysPanel } from './SshKeysPanel';
import { useSshCa, useTokenGate } from './ssh-api';

function CaPanel() {
  const { t } = useI18n();
  const ca = useSshCa();
  const gate = useTokenGate();
  return (
    <Stack gap="xs" component="section" aria-labelledby="ssh-ca">
      <Title order={2} size="h4" id="ssh-ca">
        {t('ssh.ca')}
      </Title>
      <ErrorAlert error={ca.error ?? gate.error} />
      {ca.isPending ? (
        <Loading />
      ) : (
        ca.data && (
          <>
            <Text size="sm">{t('ssh.caHint')}</Text>
            <Code block data-testid="ssh-ca-key" style={{ wordBreak: 'break-all' }}>
              {ca.data.public_key}
            </Code>
            <Group gap="xs">
              <Text size="sm">
                {ca.data.key_type} · {ca.data.fingerprint}
              </Text>
              <CopyButton value={ca.data.public_key}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? t('infra.copied') : t('ssh.copyCa')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </>
        )
      )}
      {gate.data && (
        <Text size="sm" data-testid="token-gate">
          {t('ssh.gate', {
            gate: lookUp(t, 'ssh.gateStep', gate.data.gate),
            header: gate.data.header,
          })}
        </Text>
      )}
    </Stack>
  );
}

/**
 * SSH: the CA public key and the key-holder token step for everyone; the key registry, shared
 * accounts and key-holder tokens for cert-admin only (the spec's admin-only reads).
 */
export default function SshPage() {
  const { t } = useI18n();
  const { user } = useSession();
  const admin = can(user, 'admin');
  return (
    <Stack gap="lg">
      <Title order={1} size="h3">
        {t('ssh.title')}
      </Title>
      <CaPanel />
      {admin && <SshKeysPanel />}
      {admin && <AliasesPanel />}
      {admin && <KeyholderTokensPanel />}
    </Stack>
  );
}

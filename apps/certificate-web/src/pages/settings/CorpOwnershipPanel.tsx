import {
  Button,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { ErrorAlert, formatDate, Loading } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  putSaAutoApproveDtoAttestationValues as ATTESTATION,
  putSaAutoApproveDtoPolicyValues as POLICIES,
} from '../../api/schema.gen';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { putCorpPolicy, useCorpPolicy, type CorpPolicy } from './settings-api';

function CorpPolicyForm({ policy, admin }: { policy: CorpPolicy; admin: boolean }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    policy: policy.policy,
    attestation: policy.attestation,
    url: policy.webhook_url ?? '',
    timeout: policy.webhook_timeout_ms as number | string,
    secret: '',
  });
  const save = useMutation({
    mutationFn: () =>
      putCorpPolicy({
        policy: form.policy,
        attestation: form.attestation,
        webhook_url: form.url.trim() || null,
        webhook_timeout_ms: Number(form.timeout) || policy.webhook_timeout_ms,
        // A new secret only when typed: the stored one is never shown, absent keeps it.
        ...(form.secret ? { webhook_secret: form.secret } : {}),
      }),
    onSuccess: (answer) => queryClient.setQueryData(['settings', 'corp-policy'], answer),
  });
  return (
    <Stack gap="xs">
      <Group align="end">
        <Select
          label={t('settings.corpPolicy')}
          w={320}
          allowDeselect={false}
          readOnly={!admin}
          value={form.policy}
          data={POLICIES.map((p) => ({ value: p, label: lookUp(t, 'settings.corp', p) }))}
          onChange={(value) => value && setForm({ ...form, policy: value as CorpPolicy['policy'] })}
        />
        <Select
          label={t('settings.corpAttestation')}
          w={260}
          allowDeselect={false}
          readOnly={!admin}
          value={form.attestation}
          data={ATTESTATION.map((a) => ({ value: a, label: a }))}
          onChange={(value) =>
            value && setForm({ ...form, attestation: value as CorpPolicy['attestation'] })
          }
        />
      </Group>
      <Group align="end">
        <TextInput
          label={t('settings.webhookUrl')}
          w={420}
          readOnly={!admin}
          value={form.url}
          onChange={(e) => setForm({ ...form, url: e.currentTarget.value })}
        />
        <NumberInput
          label={t('settings.webhookTimeout')}
          w={200}
          min={100}
          max={30000}
          allowDecimal={false}
          readOnly={!admin}
          value={form.timeout}
          onChange={(value) => setForm({ ...form, timeout: value })}
        />
        {admin && (
          <PasswordInput
            label={t('settings.webhookSecret')}
            description={t(
              policy.webhook_secret_set
                ? 'settings.webhookSecretSet'
                : 'settings.webhookSecretNone',
            )}
            w={300}
            autoComplete="new-password"
            value={form.secret}
            onChange={(e) => setForm({ ...form, secret: e.currentTarget.value })}
          />
        )}
      </Group>
      {!policy.webhook_configured && form.policy.includes('webhook') && (
        <Text size="sm" c="red.9">
          {t('settings.webhookMissing')}
        </Text>
      )}
      <ErrorAlert error={save.error} />
      <Group>
        {admin && (
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            {t('settings.saveCorpPolicy')}
          </Button>
        )}
        {save.isSuccess && (
          <Text size="sm" role="status">
            {t('settings.saved')}
          </Text>
        )}
        {policy.updated_at && (
          <Text size="xs">
            {t('settings.updated', {
              at: formatDate(policy.updated_at, locale),
              by: policy.updated_by ?? '—',
            })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** The corporate-ownership policy of service-account approval: all read, cert-admin writes. */
export function CorpOwnershipPanel({ admin }: { admin: boolean }) {
  const policy = useCorpPolicy();
  if (policy.isPending) return <Loading />;
  if (!policy.data) return <ErrorAlert error={policy.error} />;
  return <CorpPolicyForm policy={policy.data} admin={admin} />;
}

import { Button, Group, Select, Stack, Switch, Text, Textarea } from '@mantine/core';
import { ErrorAlert, formatDate, Loading } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  systemSettingsDtoApp_attest_enforcementValues as APP_ATTEST,
  systemSettingsDtoK8s_prompt_stepValues as K8S_STEPS,
  systemSettingsDtoKeyholder_token_gateValues as TOKEN_GATES,
  systemSettingsDtoSsh_key_bindingValues as SSH_BINDING,
} from '../../api/schema.gen';
import { useI18n } from '../../i18n/i18n';
import { lines, putSystemSettings, useSystemSettings, type SystemSettings } from './settings-api';

function SystemForm({ settings }: { settings: SystemSettings }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    ...settings,
    principals: settings.ssh_key_auto_approve_principals.join('\n'),
    networks: settings.keyholder_allowed_networks.join('\n'),
  });
  const save = useMutation({
    mutationFn: () =>
      putSystemSettings({
        ssh_key_binding: form.ssh_key_binding,
        ssh_key_auto_approve: form.ssh_key_auto_approve,
        ssh_key_auto_approve_principals: lines(form.principals),
        keyholder_token_gate: form.keyholder_token_gate,
        keyholder_allowed_networks: lines(form.networks),
        k8s_prompt_step: form.k8s_prompt_step,
        app_attest_enforcement: form.app_attest_enforcement,
      }),
    onSuccess: (answer) => queryClient.setQueryData(['settings', 'system'], answer),
  });
  const choice = <K extends keyof SystemSettings>(
    key: K,
    values: readonly string[],
    label: string,
  ) => (
    <Select
      label={label}
      w={260}
      allowDeselect={false}
      value={String(form[key])}
      data={values.map((v) => ({ value: v, label: v }))}
      onChange={(value) => value && setForm({ ...form, [key]: value })}
    />
  );
  return (
    <Stack gap="xs">
      <Group align="end">
        {choice('ssh_key_binding', SSH_BINDING, t('settings.sshKeyBinding'))}
        {choice('keyholder_token_gate', TOKEN_GATES, t('settings.keyholderTokenGate'))}
        {choice('k8s_prompt_step', K8S_STEPS, t('settings.k8sPromptStep'))}
        {choice('app_attest_enforcement', APP_ATTEST, t('settings.appAttest'))}
      </Group>
      <Switch
        label={t('settings.sshAutoApprove')}
        checked={form.ssh_key_auto_approve}
        onChange={(e) => setForm({ ...form, ssh_key_auto_approve: e.currentTarget.checked })}
      />
      <Group align="start" grow maw={900}>
        <Textarea
          label={t('settings.sshAutoApprovePrincipals')}
          description={t('settings.onePerLine')}
          autosize
          minRows={2}
          value={form.principals}
          onChange={(e) => setForm({ ...form, principals: e.currentTarget.value })}
        />
        <Textarea
          label={t('settings.keyholderNetworks')}
          description={t('settings.keyholderNetworksHint')}
          autosize
          minRows={2}
          value={form.networks}
          onChange={(e) => setForm({ ...form, networks: e.currentTarget.value })}
        />
      </Group>
      <ErrorAlert error={save.error} />
      <Group>
        <Button loading={save.isPending} onClick={() => save.mutate()}>
          {t('settings.saveSystem')}
        </Button>
        {save.isSuccess && (
          <Text size="sm" role="status">
            {t('settings.saved')}
          </Text>
        )}
        {settings.updated_at && (
          <Text size="xs" data-testid="system-updated">
            {t('settings.updated', {
              at: formatDate(settings.updated_at, locale),
              by: settings.updated_by ?? '—',
            })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** System settings (cert-admin reads and writes them; the route refuses other roles). */
export function SystemSettingsPanel() {
  const system = useSystemSettings(true);
  if (system.isPending) return <Loading />;
  if (!system.data) return <ErrorAlert error={system.error} />;
  return <SystemForm settings={system.data} />;
}

import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { ErrorAlert, formatDate, Loading } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { putEnrollSourceAuthDtoModeValues as MODES } from '../../api/schema.gen';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { putSourceAuth, useSourceAuth, type SourceAuth } from './settings-api';

function SourceAuthForm({ policy, admin }: { policy: SourceAuth; admin: boolean }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<SourceAuth['mode']>(policy.mode);
  const [floor, setFloor] = useState(policy.min_agent_version ?? '');
  const save = useMutation({
    mutationFn: () =>
      putSourceAuth({ mode, ...(floor.trim() ? { min_agent_version: floor.trim() } : {}) }),
    onSuccess: (answer) => queryClient.setQueryData(['settings', 'source-auth'], answer),
  });
  return (
    <Stack gap="xs">
      <Group align="end">
        <Select
          label={t('settings.sourceAuthMode')}
          w={360}
          allowDeselect={false}
          readOnly={!admin}
          value={mode}
          data={MODES.map((m) => ({ value: m, label: lookUp(t, 'settings.sourceAuth', m) }))}
          onChange={(value) => value && setMode(value as SourceAuth['mode'])}
        />
        <TextInput
          label={t('settings.minAgentVersion')}
          description={t('settings.minAgentVersionHint')}
          readOnly={!admin}
          value={floor}
          onChange={(e) => setFloor(e.currentTarget.value)}
          w={220}
        />
        {admin && (
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            {t('settings.saveSourceAuth')}
          </Button>
        )}
      </Group>
      <ErrorAlert error={save.error} />
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
    </Stack>
  );
}

/** The enroll source-auth step: every admin role reads it, cert-admin changes it (audited). */
export function SourceAuthPanel({ admin }: { admin: boolean }) {
  const policy = useSourceAuth();
  if (policy.isPending) return <Loading />;
  if (!policy.data) return <ErrorAlert error={policy.error} />;
  return <SourceAuthForm policy={policy.data} admin={admin} />;
}

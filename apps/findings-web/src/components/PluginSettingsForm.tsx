import {
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { SEVERITIES, type Schemas } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorAlert } from '@platform/web-ui';

/** A setting of a plugin's settings schema; `severity` is a channel's common severity setting. */
export type SettingField = Omit<Schemas['PluginSettingSchemaDto'], 'type'> & {
  type: Schemas['PluginSettingSchemaDto']['type'] | 'severity';
};

/** The form's values as the API takes them (empty non-secret: null; empty secret: left out). */
export interface SettingsValues {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
}

function asText(v: unknown): string {
  return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * A settings form generated from a plugin's settings schema (plugin administration and a
 * project's channel settings). Secret fields are write-only: they start empty, show "set" when
 * the API says a value is stored, and an empty one is not sent (the stored value stays).
 */
export function PluginSettingsForm({
  label,
  schema,
  stored,
  secretsSet,
  onSave,
  saving,
  error,
  children,
}: {
  label: string;
  schema: SettingField[];
  stored: Record<string, unknown> | null | undefined;
  secretsSet: string[];
  onSave: (values: SettingsValues) => void;
  saving: boolean;
  error: unknown;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      schema.filter((s) => !s.secret).map((s) => [s.name, asText(stored?.[s.name])]),
    ),
  );
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [invalid, setInvalid] = useState<string>();
  const submit = () => {
    const settings: Record<string, unknown> = {};
    for (const s of schema.filter((x) => !x.secret)) {
      const raw = values[s.name] ?? '';
      if (raw === '') settings[s.name] = null;
      else if (s.type === 'integer') settings[s.name] = Number(raw);
      else if (s.type === 'boolean') settings[s.name] = raw === 'true';
      else if (s.type === 'json') {
        try {
          settings[s.name] = JSON.parse(raw) as unknown;
        } catch {
          setInvalid(s.name);
          return;
        }
      } else settings[s.name] = raw;
    }
    setInvalid(undefined);
    onSave({
      settings,
      secrets: Object.fromEntries(Object.entries(secrets).filter(([, v]) => v !== '')),
    });
  };
  if (schema.length === 0) return null;
  return (
    <form
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap={4}>
        {schema.map((s) =>
          s.secret ? (
            <PasswordInput
              key={s.name}
              size="xs"
              label={s.name}
              description={s.description}
              placeholder={secretsSet.includes(s.name) ? t('plugins.secretSet') : ''}
              value={secrets[s.name] ?? ''}
              onChange={(e) => setSecrets({ ...secrets, [s.name]: e.currentTarget.value })}
              autoComplete="new-password"
            />
          ) : s.type === 'boolean' ? (
            <Checkbox
              key={s.name}
              size="xs"
              label={s.name}
              description={s.description}
              checked={values[s.name] === 'true'}
              onChange={(e) => setValues({ ...values, [s.name]: String(e.currentTarget.checked) })}
            />
          ) : s.type === 'severity' ? (
            <Select
              key={s.name}
              size="xs"
              w={200}
              label={s.name}
              description={s.description}
              data={SEVERITIES}
              clearable
              clearButtonProps={{ 'aria-label': t('common.clear') }}
              value={values[s.name] || null}
              onChange={(v) => setValues({ ...values, [s.name]: v ?? '' })}
            />
          ) : (
            <TextInput
              key={s.name}
              size="xs"
              label={s.name}
              description={s.description}
              required={s.required}
              error={invalid === s.name ? t('plugins.invalidJson') : undefined}
              value={values[s.name] ?? ''}
              onChange={(e) => setValues({ ...values, [s.name]: e.currentTarget.value })}
            />
          ),
        )}
        {secretsSet.length > 0 && (
          <Text size="xs" data-testid="secrets-set">
            {t('plugins.secretsSet', { names: secretsSet.join(', ') })}
          </Text>
        )}
        <ErrorAlert error={error} />
        <Group>
          <Button size="xs" type="submit" loading={saving}>
            {t('common.save')}
          </Button>
          {children}
        </Group>
      </Stack>
    </form>
  );
}

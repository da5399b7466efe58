import { Button, Checkbox, Group, NumberInput, Paper, Stack, TextInput } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import {
  createServiceAccount,
  PURPOSES,
  type CreatedServiceAccount,
  type Purpose,
} from './access-api';

/** A new service account: name, allowed purposes (default Wi-Fi), expiry in days (0: never). */
export function CreateServiceAccountForm({
  onCreated,
}: {
  onCreated(account: CreatedServiceAccount): void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [purposes, setPurposes] = useState<string[]>(['wifi']);
  const [days, setDays] = useState<number | string>(0);
  const create = useMutation({
    mutationFn: () =>
      createServiceAccount({
        name: name.trim(),
        allowed_purposes: purposes as Purpose[],
        expires_in_days: Number(days) || 0,
      }),
    onSuccess: (account) => {
      setName('');
      setPurposes(['wifi']);
      setDays(0);
      onCreated(account);
      // The token lives only in the panel's one-time display, not in the mutation's cache.
      create.reset();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Paper withBorder p="sm">
      <form onSubmit={submit} aria-label={t('access.createTitle')}>
        <Stack gap="xs">
          <Group align="end">
            <TextInput
              label={t('access.name')}
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <NumberInput
              label={t('access.expiresInDays')}
              description={t('access.expiresHint')}
              min={0}
              max={3650}
              allowDecimal={false}
              value={days}
              onChange={setDays}
              w={200}
            />
          </Group>
          <Checkbox.Group
            label={t('access.allowedPurposes')}
            value={purposes}
            onChange={setPurposes}
          >
            <Group gap="sm" mt={6}>
              {PURPOSES.map((p) => (
                <Checkbox key={p} value={p} label={t(`purpose.${p}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <ErrorAlert error={create.error} />
          <Group>
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              {t('access.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

import {
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import { createWebhook, EVENT_TYPES, updateWebhook, type Webhook } from './webhooks-api';

/**
 * Create an endpoint or change one: URL, description, event types (none chosen: every type),
 * signing secret (empty: generated on create, unchanged on edit). `onSecret` gets the secret
 * when the answer carries it (shown once by the page).
 */
export function WebhookDialog({
  webhook,
  onClose,
  onSecret,
}: {
  webhook?: Webhook;
  onClose(): void;
  onSecret(url: string, secret: string): void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [types, setTypes] = useState<string[]>(webhook?.event_types ?? []);
  const [secret, setSecret] = useState('');
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        url: url.trim(),
        description,
        event_types: types as (typeof EVENT_TYPES)[number][],
        ...(secret ? { secret } : {}),
      };
      return webhook ? updateWebhook(webhook.id, body) : createWebhook({ ...body, enabled: true });
    },
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      if (answer.secret) onSecret(answer.url, answer.secret);
      // The secret lives only in the page's one-time display, not in the mutation's cache.
      save.reset();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={webhook ? t('webhooks.editTitle', { url: webhook.url }) : t('webhooks.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={t('webhooks.url')}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            placeholder="https://hooks.example.com/certsvc"
            required
            data-autofocus
          />
          <TextInput
            label={t('webhooks.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Checkbox.Group
            label={t('webhooks.eventTypes')}
            description={t('webhooks.eventTypesHint')}
            value={types}
            onChange={setTypes}
          >
            <SimpleGrid cols={2} spacing={4} mt={6}>
              {EVENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={type} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <PasswordInput
            label={t('webhooks.secret')}
            description={webhook ? t('webhooks.secretKeepHint') : t('webhooks.secretNewHint')}
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            autoComplete="new-password"
          />
          <ErrorAlert error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('infra.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

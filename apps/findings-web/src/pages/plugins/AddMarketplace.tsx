import { ErrorAlert } from '@platform/web-ui';
import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { useAddPluginSource } from './api/plugin-sources';

/** A new catalog source: name, catalog URL and, for a signed source, the publisher key. */
export function AddMarketplace() {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const create = useAddPluginSource(() => {
    setName('');
    setUrl('');
    setKey('');
  });
  return (
    <form
      aria-label={t('plugins.addMarketplace')}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({
          name,
          catalog_url: url,
          is_active: true,
          ...(key.trim() ? { public_key: key } : {}),
        });
      }}
    >
      <Stack gap="xs">
        <Group align="end" gap="xs">
          <TextInput
            size="xs"
            required
            label={t('common.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            size="xs"
            w={360}
            required
            label={t('plugins.catalogUrl')}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
        </Group>
        <Textarea
          size="xs"
          autosize
          minRows={2}
          label={t('plugins.publicKey')}
          description={t('plugins.publicKeyHint')}
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
        />
        <ErrorAlert error={create.error} />
        <Group>
          <Button size="xs" type="submit" loading={create.isPending}>
            {t('plugins.addMarketplace')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

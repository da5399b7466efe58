import { ErrorAlert } from '@platform/web-ui';
import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { useSetSourceNative, type PluginSource } from './api/plugin-sources';

/** Granting native execution asks for an explicit confirmation; withdrawing does not. */
export function NativeToggle({ marketplace }: { marketplace: PluginSource }) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const set = useSetSourceNative(marketplace.id, () => setConfirming(false));
  return (
    <>
      <Checkbox
        size="xs"
        label={t('plugins.allowsNative')}
        checked={marketplace.allows_native}
        onChange={(e) => (e.currentTarget.checked ? setConfirming(true) : set.mutate(false))}
      />
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('plugins.grantNativeTitle')}
      >
        <Stack gap="sm">
          <Text size="sm">{t('plugins.grantNativeText', { name: marketplace.name })}</Text>
          <ErrorAlert error={set.error} />
          <Group justify="flex-end">
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              size="xs"
              color="red.9"
              onClick={() => set.mutate(true)}
              loading={set.isPending}
            >
              {t('plugins.grantNative')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n';

/** Asks before an action that cannot be taken back (revoke, key releases, token rotation). */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  text: string;
  confirmLabel?: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Modal
      opened
      onClose={onCancel}
      title={title}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text size="sm">{text}</Text>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button color="red.9" loading={busy} onClick={onConfirm}>
            {confirmLabel ?? t('device.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

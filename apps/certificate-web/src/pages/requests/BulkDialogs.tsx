import { Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import type { SerialConflict } from './requests-api';

/** The serial conflicts found before a bulk approval; the approver goes on or stops. */
export function ConflictsDialog({
  conflicts,
  onApprove,
  onCancel,
}: {
  conflicts: SerialConflict[];
  onApprove(): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  return (
    <Modal
      opened
      onClose={onCancel}
      title={t('requests.conflictsTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text size="sm">{t('requests.conflictsText')}</Text>
        <List size="sm" data-testid="conflicts">
          {conflicts.map((c) => (
            <List.Item key={`${c.serial} ${c.purpose} ${c.user_identity ?? ''}`}>
              <b>{c.serial}</b> · {t(`purpose.${c.purpose}`)}
              {c.user_identity ? ` · ${c.user_identity}` : ''}:{' '}
              {c.kinds
                .map((kind) =>
                  kind === 'active_certificate'
                    ? t('requests.conflictKind.active_certificate', {
                        serials: c.active_certificate_serials.join(', '),
                      })
                    : t('requests.conflictKind.multiple_pending'),
                )
                .join('; ')}
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button onClick={onApprove}>{t('requests.approveAnyway')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Bulk rejection with an optional reason (kept in the audit log). */
export function RejectDialog({
  count,
  onReject,
  onCancel,
}: {
  count: number;
  onReject(reason: string): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  return (
    <Modal
      opened
      onClose={onCancel}
      title={t('requests.rejectTitle', { count })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Textarea
          label={t('requests.rejectReason')}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button color="red.9" onClick={() => onReject(reason)}>
            {t('requests.reject')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Select } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { ConfirmDialog } from '../devices/ConfirmDialog';
import {
  REASONS,
  revokeCertificate,
  type Certificate,
  type RevocationReason,
} from './certificates-api';

/** Revokes one certificate with a reason (cert-admin); the answer goes to `onRevoked`. */
export function RevokeDialog({
  serial,
  onClose,
  onRevoked,
}: {
  serial: string;
  onClose(): void;
  onRevoked?(answer: Awaited<ReturnType<typeof revokeCertificate>>): void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<RevocationReason>('unspecified');
  const revoke = useMutation({
    mutationFn: () => revokeCertificate(serial, reason),
    onSuccess: (answer) => {
      onRevoked?.(answer);
      onClose();
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['certificates'] }),
        queryClient.invalidateQueries({ queryKey: ['certificate', serial] }),
      ]),
  });
  return (
    <ConfirmDialog
      title={t('certificates.revokeTitle', { serial })}
      text={t('certificates.revokeText')}
      confirmLabel={t('certificates.revoke')}
      busy={revoke.isPending}
      onConfirm={() => revoke.mutate()}
      onCancel={onClose}
    >
      <Select
        label={t('certificates.reasonLabel')}
        allowDeselect={false}
        value={reason}
        data={REASONS.map((r) => ({ value: r, label: r }))}
        onChange={(value) => setReason((value ?? 'unspecified') as RevocationReason)}
        comboboxProps={{ withinPortal: false }}
      />
      <ErrorAlert error={revoke.error} />
    </ConfirmDialog>
  );
}

export type { Certificate };

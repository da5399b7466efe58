import { Alert, Button, FileInput, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { activateLicense, fileToBase64, reanchorLedger, type ReanchorResult } from './license-api';

/** Activation by uploading the vendor's `.lic` file (cert-admin). */
export function ActivatePanel() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const activate = useMutation({
    mutationFn: async (lic: File) => activateLicense(await fileToBase64(lic)),
    onSuccess: async () => {
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: ['license'] });
    },
  });
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="license-activate">
      <Stack gap="xs">
        <Title order={2} size="h5" id="license-activate">
          {t('license.activateTitle')}
        </Title>
        <Text size="sm">{t('license.activateText')}</Text>
        <Group align="end">
          <FileInput
            label={t('license.file')}
            accept=".lic,application/json"
            value={file}
            onChange={setFile}
            // Darker than Mantine's placeholder grey (contrast), and the button's name when empty.
            placeholder={
              <Text span size="sm" c="dark.6">
                {t('license.choose')}
              </Text>
            }
            w={320}
            data-testid="license-file"
          />
          <Button
            disabled={!file}
            loading={activate.isPending}
            onClick={() => file && activate.mutate(file)}
          >
            {t('license.activate')}
          </Button>
        </Group>
        {activate.isSuccess && (
          <Alert color="green.9" role="status" data-testid="license-activated">
            {t('license.activated', { issuedTo: activate.data.issued_to })}
          </Alert>
        )}
        <ErrorAlert error={activate.error} />
      </Stack>
    </Paper>
  );
}

/** Re-anchoring the usage ledger after a tamper (cert-admin), after a confirmation. */
export function ReanchorPanel({
  tamper,
  result,
  onResult,
}: {
  tamper: boolean;
  result: ReanchorResult | null;
  onResult(result: ReanchorResult): void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const reanchor = useMutation({
    mutationFn: reanchorLedger,
    onSuccess: async (answer) => {
      setAsking(false);
      onResult(answer);
      await queryClient.invalidateQueries({ queryKey: ['license'] });
    },
  });
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="license-reanchor">
      <Stack gap="xs">
        <Title order={2} size="h5" id="license-reanchor">
          {t('license.reanchorTitle')}
        </Title>
        <Text size="sm">{t('license.reanchorText')}</Text>
        {tamper && (
          <Group>
            <Button color="red.9" onClick={() => setAsking(true)}>
              {t('license.reanchor')}
            </Button>
          </Group>
        )}
        {result && (
          <Alert color="green.9" role="status" data-testid="reanchor-result">
            {t('license.reanchored', {
              active: result.active_count,
              recount: result.recount,
              devices: result.devices_with_certificates,
              checkpoint: result.checkpoint_count,
              placeholders: result.placeholders,
            })}
          </Alert>
        )}
        <ErrorAlert error={reanchor.error} />
      </Stack>
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        title={t('license.reanchorConfirmTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text size="sm">{t('license.reanchorConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="red.9" loading={reanchor.isPending} onClick={() => reanchor.mutate()}>
              {t('license.reanchor')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

import { Alert } from '@mantine/core';
import { ApiError } from '../api/client';
import { useI18n } from '../i18n/i18n';

/** An API error as the envelope's localized message (the code below it, for support). */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert
      color="red.9"
      variant="filled"
      title={t('common.error')}
      role="alert"
      data-testid="api-error"
    >
      {message}
      {error instanceof ApiError && (
        <div>
          <code>{error.code}</code>
        </div>
      )}
    </Alert>
  );
}

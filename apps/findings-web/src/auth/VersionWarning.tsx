import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { useI18n } from '../i18n/i18n';

export const UI_MAJOR_MINOR = __APP_MAJOR_MINOR__;

/** `X.Y` of a `X.Y.BUILD+COMMIT` version. */
export function majorMinor(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

/** Warns when the backend's X.Y (GET /api/v1/version) differs from the UI's. */
export function VersionWarning() {
  const { t } = useI18n();
  const { data } = useQuery({
    queryKey: ['version'],
    queryFn: () => call(api.GET('/api/v1/version')),
    staleTime: 5 * 60_000,
  });
  if (!data || majorMinor(data.version) === UI_MAJOR_MINOR) return null;
  return (
    <Alert color="#8a3a00" variant="filled" role="alert" data-testid="version-mismatch" mb="sm">
      {t('version.mismatch', { ui: UI_MAJOR_MINOR, api: majorMinor(data.version) })}
    </Alert>
  );
}

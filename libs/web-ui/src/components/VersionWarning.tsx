import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { WebUiMessageKey } from '../core/messages';
import { majorMinor } from '../core/version';
import { useI18nOf } from '../i18n';

/**
 * Warns when the backend's X.Y differs from the UI's (`uiVersion`, the workspace package's
 * major.minor stamped into the build). `loadServerVersion` asks the app's service for its
 * `X.Y.BUILD+COMMIT` version (cached five minutes under the query key `['version']`).
 */
export function VersionWarning({
  uiVersion,
  loadServerVersion,
}: {
  uiVersion: string;
  loadServerVersion: () => Promise<string>;
}) {
  const { t } = useI18nOf<WebUiMessageKey>();
  const { data } = useQuery({
    queryKey: ['version', 'server'],
    queryFn: loadServerVersion,
    staleTime: 5 * 60_000,
  });
  if (!data || majorMinor(data) === uiVersion) return null;
  return (
    <Alert color="#8a3a00" variant="filled" role="alert" data-testid="version-mismatch" mb="sm">
      {t('version.mismatch', { ui: uiVersion, api: majorMinor(data) })}
    </Alert>
  );
}

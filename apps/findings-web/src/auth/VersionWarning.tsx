import { VersionWarning as SharedVersionWarning } from '@platform/web-ui';
import { api, call } from '../api/client';

export const UI_MAJOR_MINOR = __APP_MAJOR_MINOR__;

const loadServerVersion = async () => (await call(api.GET('/api/v1/version'))).version;

/** Warns when the backend's X.Y (GET /api/v1/version) differs from the UI's. */
export function VersionWarning() {
  return <SharedVersionWarning uiVersion={UI_MAJOR_MINOR} loadServerVersion={loadServerVersion} />;
}

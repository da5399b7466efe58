import { currentBuildInfo } from '@platform/versioning';

/**
 * The version plugins' `min_service_version` is checked against: the platform's X.Y as
 * `X.Y.0` (BUILD is a timestamp, not a patch level).
 */
export function pluginServiceVersion(): string {
  return `${currentBuildInfo().majorMinor}.0`;
}

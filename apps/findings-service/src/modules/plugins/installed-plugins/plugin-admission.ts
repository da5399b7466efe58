import {
  SUPPORTED_WIT_VERSIONS,
  satisfiesServiceVersion,
  type PluginCapability,
  type PluginRuntime,
} from '@platform/plugin-sdk';
import { compareSemver } from '../catalog/catalog-document';
import type { VerifiedPluginVersion } from '../catalog/plugin-catalog.service';
import type { PluginSourceEntity } from '../marketplaces/plugin-source.entity';
import { PluginsError } from '../plugins.errors';
import { pluginServiceVersion } from '../service-version';
import type { InstalledPluginEntity } from './installed-plugin.entity';

/**
 * What a version must satisfy before it is installed or applied (docs/plugins/installation.md).
 * Each check throws the refusal's PluginsError; none writes anything.
 */

/** A plugin already installed is refused again: older than installed, or already there. */
export function refuseReinstall(existing: InstalledPluginEntity, version: string): never {
  if (compareSemver(version, existing.version) < 0) {
    throw new PluginsError('plugin_version_older', { version, installed: existing.version });
  }
  throw new PluginsError('plugin_already_installed', { id: existing.id });
}

/**
 * Runtime rules: the requested runtime must be the plugin's; notification channels run
 * native only, and native needs a signed source carrying allows_native; nothing else runs
 * native (a ticketing provider never).
 */
export function checkRuntime(
  requested: PluginRuntime,
  runtime: PluginRuntime,
  capabilities: PluginCapability[],
  source: PluginSourceEntity | null,
): void {
  const channel = capabilities.includes('notification_channel');
  if (channel && requested !== 'native') {
    throw new PluginsError('plugin_runtime_refused', {
      runtime: requested,
      reason: 'notification channels run native',
    });
  }
  if (requested !== runtime) {
    throw new PluginsError('plugin_runtime_refused', {
      runtime: requested,
      reason: `the plugin is built for ${runtime}`,
    });
  }
  if (runtime === 'native' && !(source?.publicKey && source.allowsNative)) {
    throw new PluginsError('plugin_native_not_permitted');
  }
}

/** The checks again on the verified manifest and artifact (what the catalog entry promised). */
export function checkVerified(
  verified: VerifiedPluginVersion,
  requested: PluginRuntime,
  source: PluginSourceEntity | null,
): void {
  const m = verified.manifest;
  checkRuntime(requested, m.runtime, m.capabilities, source);
  if (m.runtime === 'wasm' && !SUPPORTED_WIT_VERSIONS.includes(m.wit_version)) {
    throw new PluginsError('plugin_manifest_invalid', {
      problems: `unsupported wit_version ${m.wit_version}`,
    });
  }
  checkRevoked(source, verified.digest);
  checkServiceVersion(m.min_service_version);
}

export function checkRevoked(source: PluginSourceEntity | null, digest: string): void {
  if (source?.revokedDigests.includes(digest)) {
    throw new PluginsError('plugin_artifact_revoked', { digest });
  }
}

export function checkServiceVersion(range: string): void {
  const service = pluginServiceVersion();
  if (!satisfiesServiceVersion(range, service)) {
    throw new PluginsError('plugin_service_version_unmet', {
      required: range,
      service: service.replace(/\.0$/, ''),
    });
  }
}

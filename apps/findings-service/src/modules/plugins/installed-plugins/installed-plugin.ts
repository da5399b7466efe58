import type { PluginCapability, PluginManifest, PluginRuntime } from '@platform/plugin-sdk';
import type { PendingPluginVersion, PluginSourceType } from './installed-plugin.entity';

/** An installed plugin as the rest of the service reads it (no secret values). */
export interface InstalledPlugin {
  /** Installation id; also the plugin id in the runner. */
  id: string;
  sourceType: PluginSourceType;
  marketplaceId: string | null;
  catalogPluginId: string;
  runtime: PluginRuntime;
  enabled: boolean;
  version: string;
  artifactSha256: string;
  capabilities: PluginCapability[];
  /** The validated manifest of the installed version (settings schema, allowed hosts, ...). */
  manifest: PluginManifest;
  /** Non-secret installation settings. */
  settings: Record<string, unknown>;
  /** Names of the secret-marked settings that have a value. */
  secretSettingsSet: string[];
  pendingVersion: PendingPluginVersion | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An installed plugin with its decrypted secrets, for one run. Never serialise it. */
export interface InstalledPluginForRun extends InstalledPlugin {
  secretSettings: Record<string, string>;
  /** Manifest allowed hosts plus the hosts of the administrator-entered `url` settings. */
  permittedHosts: string[];
}

/**
 * The read interface other modules (enrichment, finding sources, channels) use. Implemented
 * by InstalledPluginsService (docs/plugins/installation.md, "For other modules").
 */
export interface InstalledPluginCatalog {
  listEnabledByCapability(capability: PluginCapability): Promise<InstalledPlugin[]>;
  get(id: string): Promise<InstalledPlugin>;
  getForRun(id: string): Promise<InstalledPluginForRun>;
  ensureLoaded(id: string, options?: EnsureLoadedOptions): Promise<LoadedGeneration>;
}

/** `force`: the runner answered `not_loaded`; `seenGeneration`: what the caller's load returned. */
export interface EnsureLoadedOptions {
  force?: boolean;
  seenGeneration?: number;
  /** The digest of the enabled installation as the caller read it for this event. */
  knownDigest?: string;
}

/** The loaded version, and how many loads of the installation this process has completed. */
export interface LoadedGeneration {
  versionDigest: string;
  generation: number;
}

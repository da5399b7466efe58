/**
 * The plugin manifest (`manifest.json` next to the artifact): what a plugin is, what it may
 * do and which artifact it describes. The publisher signs the exact bytes of this file
 * (see signing/). Field names are snake_case, as in the findings service's API.
 */

/** Capabilities of the spec's "Plugin platform rules", as the manifest spells them. */
export const PLUGIN_CAPABILITIES = [
  'finding_enricher',
  'finding_source',
  'ticketing_provider',
  'notification_channel',
  'config_validator',
] as const;
export type PluginCapability = (typeof PLUGIN_CAPABILITIES)[number];

/** Tier 1 (`wasm`: a WebAssembly component in the sandbox) or tier 2 (`native`: a process). */
export const PLUGIN_RUNTIMES = ['wasm', 'native'] as const;
export type PluginRuntime = (typeof PLUGIN_RUNTIMES)[number];

/** Capabilities each runtime may carry: channels are native only; a ticketing provider never is. */
export const CAPABILITIES_BY_RUNTIME: Record<PluginRuntime, readonly PluginCapability[]> = {
  wasm: ['finding_enricher', 'finding_source', 'ticketing_provider', 'config_validator'],
  native: ['notification_channel'],
};

/** Types a setting value may have. A `url` setting entered by an administrator permits its host. */
export const SETTING_TYPES = ['string', 'url', 'integer', 'boolean', 'json'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

export interface PluginSettingSchema {
  /** Exact identifier, e.g. `cmdb_base_url` (lower case, digits, `_`; starts with a letter). */
  name: string;
  type: SettingType;
  required?: boolean;
  /** Secret-marked: never returned by the service, readable only through `get-secret`. */
  secret?: boolean;
  /** Per-project value (`get-project-secret` for secrets) overriding the installation's. */
  per_project?: boolean;
  description?: string;
}

export interface PluginManifest {
  /** Catalog id of the plugin: lower case, digits, `-`, `_`, `.`; 1-100 characters. */
  id: string;
  /** Semantic version `MAJOR.MINOR.PATCH` (optional `-pre` suffix). */
  version: string;
  capabilities: PluginCapability[];
  runtime: PluginRuntime;
  /** Version of the WIT world `findsvc:plugin` the component targets (wasm), e.g. `0.1.0`. */
  wit_version: string;
  /** Service versions the plugin works with, e.g. `>=0.33` or `>=0.33 <2`. */
  min_service_version: string;
  /** Host names (lower case, no scheme, no port) the plugin may call through `http-request`. */
  allowed_hosts: string[];
  settings: PluginSettingSchema[];
  /** Lower-case hex SHA-256 of the artifact (the component's bytes for `wasm`). */
  artifact_sha256: string;
  description?: string;
}

import type { EnvReader } from '@platform/config';

/** Plugin administration: catalogs, artifacts, secret settings (docs/plugins/installation.md). */
export interface PluginsConfig {
  /**
   * PLUGIN_SECRETS_KEY: the key secret-marked plugin settings are sealed with (AES-256-GCM, key
   * derived by HKDF-SHA256), at least 32 characters. Unset: derived from JWT_SECRET when that
   * is set (so rotating JWT_SECRET then makes stored plugin secrets unreadable — set this key),
   * else a fixed development key (`secretsKeySource: 'development'`, warned at start).
   */
  secretsKey: string;
  secretsKeySource: 'PLUGIN_SECRETS_KEY' | 'JWT_SECRET' | 'development';
  /** PLUGIN_OFFICIAL_CATALOG_URL: the official catalog source registered at first start. */
  officialCatalogUrl: string;
  /** PLUGIN_OFFICIAL_CATALOG_PUBLIC_KEY: its publisher key (SPKI PEM); unset = unsigned. */
  officialCatalogPublicKey?: string;
  /**
   * PLUGIN_CATALOG_ALLOW_LOCAL: development only — catalog and artifact URLs may use `http`
   * and loopback/private addresses (the plugin egress rules refuse both otherwise).
   */
  catalogAllowLocal: boolean;
  /** PLUGIN_CATALOG_CA_FILE: PEM bundle trusted for catalog HTTPS besides the system roots. */
  catalogCaFile?: string;
  /** PLUGIN_CATALOG_TIMEOUT_MS: deadline of one catalog or artifact download. */
  catalogTimeoutMs: number;
  /** PLUGIN_CATALOG_MAX_BYTES: ceiling of a catalog document. */
  catalogMaxBytes: number;
  /** PLUGIN_ARTIFACT_MAX_BYTES: ceiling of one artifact (download or sideload). */
  artifactMaxBytes: number;
}

export const DEFAULT_OFFICIAL_CATALOG_URL = 'https://plugins.secplatform.io/catalog/catalog.json';
const DEVELOPMENT_SECRETS_KEY = 'development-only-plugin-secrets-key-do-not-use-in-production';
const MIN_KEY_LENGTH = 32;

export function readPluginsConfig(
  r: EnvReader,
  production: boolean,
  jwtSecret: string | undefined,
): PluginsConfig {
  const key = r.optionalString('PLUGIN_SECRETS_KEY');
  if (key !== undefined && key.length < MIN_KEY_LENGTH) {
    r.problem(`PLUGIN_SECRETS_KEY must be at least ${MIN_KEY_LENGTH} characters`);
  }
  const officialCatalogUrl = r.string('PLUGIN_OFFICIAL_CATALOG_URL', DEFAULT_OFFICIAL_CATALOG_URL);
  try {
    const url = new URL(officialCatalogUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
  } catch {
    r.problem(`PLUGIN_OFFICIAL_CATALOG_URL must be an http(s) URL, got "${officialCatalogUrl}"`);
  }
  const catalogAllowLocal = r.bool('PLUGIN_CATALOG_ALLOW_LOCAL', false);
  if (catalogAllowLocal && production) {
    r.problem('PLUGIN_CATALOG_ALLOW_LOCAL is for development only (APP_ENV=production)');
  }
  return {
    secretsKey: key ?? (jwtSecret ? `plugin-secrets:${jwtSecret}` : DEVELOPMENT_SECRETS_KEY),
    secretsKeySource:
      key !== undefined ? 'PLUGIN_SECRETS_KEY' : jwtSecret ? 'JWT_SECRET' : 'development',
    officialCatalogUrl,
    officialCatalogPublicKey: r.optionalString('PLUGIN_OFFICIAL_CATALOG_PUBLIC_KEY'),
    catalogAllowLocal,
    catalogCaFile: r.optionalString('PLUGIN_CATALOG_CA_FILE'),
    catalogTimeoutMs: r.int('PLUGIN_CATALOG_TIMEOUT_MS', 30_000, { min: 100, max: 600_000 }),
    catalogMaxBytes: r.int('PLUGIN_CATALOG_MAX_BYTES', 8 * 1024 * 1024, { min: 1024 }),
    artifactMaxBytes: r.int('PLUGIN_ARTIFACT_MAX_BYTES', 64 * 1024 * 1024, {
      min: 1024,
      max: 64 * 1024 * 1024,
    }),
  };
}

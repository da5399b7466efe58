import {
  PLUGIN_CAPABILITIES,
  PLUGIN_RUNTIMES,
  verifyManifestSignature,
  type PluginCapability,
  type PluginRuntime,
} from '@platform/plugin-sdk';

/**
 * The catalog document a source serves (docs/plugins/catalog.md). Pure: parsing, the
 * envelope's signature, version ordering. Field names are snake_case as on the wire.
 */
export const CATALOG_FORMAT = 'findsvc-plugin-catalog/1';
export const SIGNED_CATALOG_FORMAT = 'findsvc-signed-catalog/1';

export interface CatalogVersion {
  version: string;
  min_service_version: string;
  runtime: PluginRuntime;
  capabilities: PluginCapability[];
  /** Absolute, or relative to the catalog URL. */
  artifact_url: string;
  artifact_sha256: string;
  /** Base64 of the exact manifest bytes the publisher signed. */
  manifest: string;
  /** Base64 Ed25519 signature over those bytes (null in an unsigned catalog). */
  signature: string | null;
  published_at?: string;
}

export interface CatalogPlugin {
  id: string;
  name?: string;
  description?: string;
  /** Newest first (sorted on read, whatever the document's order). */
  available_versions: CatalogVersion[];
}

export interface CatalogDocument {
  format: typeof CATALOG_FORMAT;
  generated_at?: string;
  plugins: CatalogPlugin[];
  /** Revoked artifact digests (lower-case hex sha256): never installed, updated to or loaded. */
  revoked_digests: string[];
}

/** Why a catalog document was refused. */
export class CatalogFormatError extends Error {
  constructor(
    readonly kind: 'invalid' | 'signature',
    message: string,
  ) {
    super(message);
    this.name = 'CatalogFormatError';
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const PLUGIN_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const SEMVER = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?$/;
const MAX_PLUGINS = 1000;
const MAX_VERSIONS = 200;

/** -1, 0, 1 by semantic version precedence (a pre-release sorts before its release). */
export function compareSemver(a: string, b: string): number {
  const x = SEMVER.exec(a);
  const y = SEMVER.exec(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return Math.sign(d);
  }
  if (x[4] === y[4]) return 0;
  if (x[4] === undefined) return 1;
  if (y[4] === undefined) return -1;
  return x[4] < y[4] ? -1 : 1;
}

/**
 * Reads the bytes a source served. A signed source (`publicKey`) must serve the signed
 * envelope and its signature must verify over the exact catalog bytes; an unsigned source may
 * serve the envelope (its signature is not checked) or the bare document.
 */
export function readCatalog(bytes: Buffer, publicKey: string | null): CatalogDocument {
  const outer = parseJson(bytes);
  let inner: unknown = outer;
  if (isObject(outer) && outer['format'] === SIGNED_CATALOG_FORMAT) {
    if (typeof outer['catalog'] !== 'string') {
      throw new CatalogFormatError('invalid', '"catalog" must be the base64 catalog bytes');
    }
    const catalogBytes = Buffer.from(outer['catalog'], 'base64');
    if (publicKey !== null) {
      const signature = outer['signature'];
      if (
        typeof signature !== 'string' ||
        !verifyManifestSignature(catalogBytes, signature, publicKey)
      ) {
        throw new CatalogFormatError('signature', 'catalog signature does not verify');
      }
    }
    inner = parseJson(catalogBytes);
  } else if (publicKey !== null) {
    throw new CatalogFormatError('signature', 'a signed source must serve a signed catalog');
  }
  return validateCatalog(inner);
}

/** Validates a parsed catalog document; versions come back newest first. */
export function validateCatalog(value: unknown): CatalogDocument {
  if (!isObject(value) || value['format'] !== CATALOG_FORMAT) {
    throw new CatalogFormatError('invalid', `"format" must be "${CATALOG_FORMAT}"`);
  }
  const plugins = value['plugins'];
  if (!Array.isArray(plugins) || plugins.length > MAX_PLUGINS) {
    throw new CatalogFormatError('invalid', `"plugins" must be a list of at most ${MAX_PLUGINS}`);
  }
  const revoked = value['revoked_digests'] ?? [];
  if (!Array.isArray(revoked) || !revoked.every((d) => typeof d === 'string' && SHA256.test(d))) {
    throw new CatalogFormatError('invalid', '"revoked_digests" must list lower-case sha256 hex');
  }
  const seen = new Set<string>();
  const out: CatalogPlugin[] = plugins.map((p, i) => {
    const plugin = readPlugin(p, `plugins[${i}]`);
    if (seen.has(plugin.id)) {
      throw new CatalogFormatError('invalid', `plugin "${plugin.id}" is listed twice`);
    }
    seen.add(plugin.id);
    return plugin;
  });
  return {
    format: CATALOG_FORMAT,
    ...(typeof value['generated_at'] === 'string' ? { generated_at: value['generated_at'] } : {}),
    plugins: out,
    revoked_digests: [...new Set(revoked as string[])],
  };
}

function readPlugin(value: unknown, at: string): CatalogPlugin {
  if (!isObject(value)) throw new CatalogFormatError('invalid', `${at} must be an object`);
  const id = value['id'];
  if (typeof id !== 'string' || !PLUGIN_ID.test(id)) {
    throw new CatalogFormatError('invalid', `${at}.id must be a catalog plugin id`);
  }
  const versions = value['available_versions'];
  if (!Array.isArray(versions) || versions.length === 0 || versions.length > MAX_VERSIONS) {
    throw new CatalogFormatError(
      'invalid',
      `${at}.available_versions must list 1-${MAX_VERSIONS} versions`,
    );
  }
  const read = versions.map((v, j) => readVersion(v, `${at}.available_versions[${j}]`));
  const numbers = new Set(read.map((v) => v.version));
  if (numbers.size !== read.length) {
    throw new CatalogFormatError('invalid', `${at} lists a version twice`);
  }
  return {
    id,
    ...(typeof value['name'] === 'string' ? { name: value['name'].slice(0, 200) } : {}),
    ...(typeof value['description'] === 'string'
      ? { description: value['description'].slice(0, 2000) }
      : {}),
    available_versions: read.sort((a, b) => compareSemver(b.version, a.version)),
  };
}

function readVersion(value: unknown, at: string): CatalogVersion {
  if (!isObject(value)) throw new CatalogFormatError('invalid', `${at} must be an object`);
  const text = (name: string, max = 4096): string => {
    const field = value[name];
    if (typeof field !== 'string' || field.length === 0 || field.length > max) {
      throw new CatalogFormatError('invalid', `${at}.${name} must be a non-empty string`);
    }
    return field;
  };
  const version = text('version', 80);
  if (!SEMVER.test(version)) {
    throw new CatalogFormatError('invalid', `${at}.version must be MAJOR.MINOR.PATCH[-pre]`);
  }
  const runtime = value['runtime'] ?? 'wasm';
  if (!PLUGIN_RUNTIMES.includes(runtime as PluginRuntime)) {
    throw new CatalogFormatError('invalid', `${at}.runtime must be wasm or native`);
  }
  const capabilities = value['capabilities'];
  if (
    !Array.isArray(capabilities) ||
    capabilities.length === 0 ||
    !capabilities.every((c) => PLUGIN_CAPABILITIES.includes(c as PluginCapability))
  ) {
    throw new CatalogFormatError('invalid', `${at}.capabilities must list known capabilities`);
  }
  const digest = text('artifact_sha256', 64);
  if (!SHA256.test(digest)) {
    throw new CatalogFormatError('invalid', `${at}.artifact_sha256 must be lower-case sha256 hex`);
  }
  const signature = value['signature'] ?? null;
  if (signature !== null && typeof signature !== 'string') {
    throw new CatalogFormatError('invalid', `${at}.signature must be base64 or null`);
  }
  return {
    version,
    min_service_version: text('min_service_version', 100),
    runtime: runtime as PluginRuntime,
    capabilities: [...new Set(capabilities as PluginCapability[])],
    artifact_url: text('artifact_url', 2048),
    artifact_sha256: digest,
    manifest: text('manifest', 256 * 1024),
    signature,
    ...(typeof value['published_at'] === 'string' ? { published_at: value['published_at'] } : {}),
  };
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw new CatalogFormatError('invalid', `not JSON: ${(error as Error).message}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

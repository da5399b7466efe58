import { parseManifest, type PluginManifest } from '@platform/plugin-sdk';

/** Versions kept; an installation has one, so this covers every installation of a deployment. */
const MAX_CACHED = 256;

const parsed = new Map<string, { bytes: Buffer; manifest: PluginManifest }>();
let parses = 0;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The validated manifest of an installed version, parsed once per version and process: kept
 * by the version's artifact digest together with the exact bytes it was parsed from (other
 * bytes under the same digest are parsed again and replace the entry). The object is shared
 * and frozen. Throws ManifestError like parseManifest for bytes that do not validate (nothing
 * is kept then).
 */
export function installedManifest(row: {
  artifactSha256: string;
  manifest: Uint8Array | string;
}): PluginManifest {
  const bytes = Buffer.isBuffer(row.manifest) ? row.manifest : Buffer.from(row.manifest);
  const hit = parsed.get(row.artifactSha256);
  if (hit && hit.bytes.equals(bytes)) return hit.manifest;
  parses += 1;
  const manifest = deepFreeze(parseManifest(bytes));
  parsed.delete(row.artifactSha256);
  if (parsed.size >= MAX_CACHED) parsed.delete(parsed.keys().next().value as string);
  parsed.set(row.artifactSha256, { bytes: Buffer.from(bytes), manifest });
  return manifest;
}

/** How many manifests this process has parsed through installedManifest (for tests). */
export function installedManifestParses(): number {
  return parses;
}

import {
  CAPABILITIES_BY_RUNTIME,
  PLUGIN_CAPABILITIES,
  PLUGIN_RUNTIMES,
  type PluginManifest,
  type PluginRuntime,
} from '@platform/plugin-sdk';
import type { LoadRequest } from '@platform/plugin-protocol';
import { createPublicKey, hash, verify, type KeyObject } from 'node:crypto';
import { PluginLoadError, type LoadedArtifact } from '../plugin-host/plugin-host';

const PLUGIN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
const DIGEST = /^[0-9a-f]{64}$/;
/** Ceiling of a Load message (a WebAssembly component is ~12 MB); the gRPC server enforces it. */
export const MAX_LOAD_MESSAGE_BYTES = 64 * 1024 * 1024;

function invalid(message: string): never {
  throw new PluginLoadError('invalid_request', message);
}

function manifestInvalid(message: string): never {
  throw new PluginLoadError('manifest_invalid', message);
}

/**
 * The manifest fields the runner relies on, checked as untrusted input. (The full format
 * check, `validateManifest` of @platform/plugin-sdk, runs in the findings service at install.)
 */
function readManifest(bytes: Buffer): PluginManifest {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    manifestInvalid('the manifest is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    manifestInvalid('the manifest is not a JSON object');
  }
  const m = value as Record<string, unknown>;
  const strings = ['id', 'version', 'runtime', 'artifact_sha256'];
  for (const field of strings) {
    if (typeof m[field] !== 'string' || (m[field] as string).length === 0) {
      manifestInvalid(`the manifest's ${field} is missing`);
    }
  }
  if (!(PLUGIN_RUNTIMES as readonly unknown[]).includes(m['runtime'])) {
    manifestInvalid(`the manifest's runtime "${String(m['runtime'])}" is unknown`);
  }
  const capabilities = m['capabilities'];
  if (
    !Array.isArray(capabilities) ||
    capabilities.length === 0 ||
    !capabilities.every((c) => (PLUGIN_CAPABILITIES as readonly unknown[]).includes(c))
  ) {
    manifestInvalid('the manifest must declare known capabilities');
  }
  const settings = m['settings'] ?? [];
  if (
    !Array.isArray(settings) ||
    !settings.every(
      (s) =>
        s !== null && typeof s === 'object' && typeof (s as { name?: unknown }).name === 'string',
    )
  ) {
    manifestInvalid('the manifest settings must be a list of named settings');
  }
  const hosts = m['allowed_hosts'] ?? [];
  if (!Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string')) {
    manifestInvalid('the manifest allowed_hosts must be a list of host names');
  }
  return { ...(m as unknown as PluginManifest), settings, allowed_hosts: hosts } as PluginManifest;
}

/** A catalog source's key: PEM (SPKI) or the raw 32-byte Ed25519 key in base64. */
function publicKey(text: string): KeyObject | undefined {
  try {
    if (text.includes('-----BEGIN')) return createPublicKey(text);
    const raw = Buffer.from(text.trim(), 'base64');
    if (raw.length !== 32) return undefined;
    return createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
      format: 'jwk',
    });
  } catch {
    return undefined;
  }
}

/**
 * The runner's own checks of a Load request before any host sees it: well-formed, the
 * manifest describes this plugin version and runtime, the signature verifies with the
 * source's key (a source without a key is unsigned), and the artifact's sha256 equals the
 * installed digest and the manifest's. The native host then adds its own (allows_native,
 * capabilities) and re-hashes.
 */
export function admitLoad(request: LoadRequest): {
  runtime: PluginRuntime;
  artifact: LoadedArtifact;
} {
  if (!PLUGIN_ID.test(request.plugin_id)) invalid('plugin_id is missing or malformed');
  const runtime = (request.runtime || 'wasm') as PluginRuntime;
  if (!PLUGIN_RUNTIMES.includes(runtime)) invalid(`runtime "${request.runtime}" is unknown`);
  if (!DIGEST.test(request.version_digest)) {
    invalid('version_digest must be a lower-case hex sha256');
  }
  if (request.manifest.length === 0) invalid('the manifest is missing');
  if (request.artifact.length === 0) invalid('the artifact is missing');

  const manifest = readManifest(request.manifest);
  if (request.version && manifest.version !== request.version) {
    manifestInvalid(`the manifest describes version ${manifest.version}, not ${request.version}`);
  }
  if (manifest.runtime !== runtime) {
    manifestInvalid(`the manifest declares runtime ${manifest.runtime}, the request ${runtime}`);
  }
  // The native host refuses its own cases with native_capability_refused (a ticketing
  // provider never runs native); a WebAssembly plugin cannot be a notification channel.
  const misplaced = manifest.capabilities.filter(
    (c) => !(CAPABILITIES_BY_RUNTIME[runtime] as readonly string[]).includes(c),
  );
  if (runtime === 'wasm' && misplaced.length > 0) {
    manifestInvalid(`capability ${misplaced.join(', ')} cannot run on runtime wasm`);
  }

  const source = request.source ?? { id: '', public_key: '', allows_native: false };
  const signed = source.public_key.trim().length > 0;
  if (signed) {
    const key = publicKey(source.public_key);
    if (!key || key.asymmetricKeyType !== 'ed25519') {
      throw new PluginLoadError('signature_invalid', 'the source public key is not an Ed25519 key');
    }
    let valid = false;
    try {
      valid =
        request.signature.length === 64 && verify(null, request.manifest, key, request.signature);
    } catch {
      valid = false;
    }
    if (!valid) {
      throw new PluginLoadError(
        'signature_invalid',
        "the manifest signature does not verify with the source's public key",
      );
    }
  }

  const digest = hash('sha256', request.artifact, 'hex');
  if (digest !== request.version_digest || digest !== manifest.artifact_sha256.toLowerCase()) {
    throw new PluginLoadError(
      'digest_mismatch',
      `the artifact's sha256 ${digest} differs from the installed digest or the manifest's`,
    );
  }
  return {
    runtime,
    artifact: {
      pluginId: request.plugin_id,
      manifest,
      versionDigest: digest,
      artifact: new Uint8Array(request.artifact),
      permittedHosts: request.permitted_hosts ?? [],
      source: { signed, allowsNative: signed && source.allows_native },
    },
  };
}

import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { parseManifest } from '../manifest/manifest';
import type { PluginManifest } from '../manifest/manifest.types';

/**
 * Ed25519 signing of a plugin: the publisher signs the exact bytes of `manifest.json`; the
 * manifest carries the artifact's SHA-256, so one signature covers both. The signature is
 * stored as base64 text in `manifest.sig`.
 */

/** A publisher key pair as PEM text (PKCS#8 private key, SPKI public key). */
export interface SigningKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function generateSigningKeyPair(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The base64 Ed25519 signature of the manifest bytes. Refuses any key that is not Ed25519. */
export function signManifest(manifestBytes: Uint8Array, privateKey: string | KeyObject): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`the signing key must be Ed25519, not ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  return sign(null, manifestBytes, key).toString('base64');
}

/**
 * True only when `signature` (base64, as in `manifest.sig`) is a valid Ed25519 signature of
 * exactly these bytes by `publicKey` (PEM or KeyObject). Malformed input answers false.
 */
export function verifyManifestSignature(
  manifestBytes: Uint8Array,
  signature: string,
  publicKey: string | KeyObject,
): boolean {
  try {
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    if (key.asymmetricKeyType !== 'ed25519') return false;
    const raw = Buffer.from(signature.trim(), 'base64');
    if (raw.length !== 64 || raw.toString('base64') !== signature.trim()) return false;
    return verify(null, manifestBytes, key, raw);
  } catch {
    return false;
  }
}

/** Lower-case hex SHA-256 of an artifact. */
export function artifactDigest(artifact: Uint8Array): string {
  return createHash('sha256').update(artifact).digest('hex');
}

export type PluginArtifactProblem =
  'signature_missing' | 'signature_invalid' | 'manifest_invalid' | 'digest_mismatch';

export class PluginArtifactError extends Error {
  constructor(
    readonly problem: PluginArtifactProblem,
    message: string,
  ) {
    super(message);
    this.name = 'PluginArtifactError';
  }
}

/**
 * Verifies a plugin as a host receives it: the signature over the manifest bytes (when a
 * public key is given — an unsigned catalog source passes none), the manifest's format, and
 * the artifact's digest against the manifest. Returns the manifest.
 */
export function verifyPluginArtifact(input: {
  artifact: Uint8Array;
  manifestBytes: Uint8Array;
  signature?: string;
  publicKey?: string | KeyObject;
}): PluginManifest {
  if (input.publicKey !== undefined) {
    if (input.signature === undefined) {
      throw new PluginArtifactError('signature_missing', 'the plugin is not signed');
    }
    if (!verifyManifestSignature(input.manifestBytes, input.signature, input.publicKey)) {
      throw new PluginArtifactError(
        'signature_invalid',
        "the manifest signature does not verify with the source's public key",
      );
    }
  }
  let manifest: PluginManifest;
  try {
    manifest = parseManifest(input.manifestBytes);
  } catch (error) {
    throw new PluginArtifactError('manifest_invalid', (error as Error).message);
  }
  const digest = artifactDigest(input.artifact);
  if (digest !== manifest.artifact_sha256) {
    throw new PluginArtifactError(
      'digest_mismatch',
      `the artifact's SHA-256 ${digest} is not the manifest's ${manifest.artifact_sha256}`,
    );
  }
  return manifest;
}

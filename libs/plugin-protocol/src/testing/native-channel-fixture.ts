import { generateKeyPairSync, hash, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NATIVE_MAGIC_COOKIE_VALUE } from '../native-handshake';
import { protoFilePath } from '../proto-files';

/** Behaviours of the fixture program (see channel-fixture.template.js). */
export type NativeChannelFixtureVariant =
  | 'normal'
  | 'no-handshake'
  | 'bad-handshake'
  | 'outside-socket'
  | 'unhealthy'
  | 'ignore-shutdown'
  | 'no-cookie-check';

/**
 * Builds the test channel plugin: one self-contained Node program (shebang, variant, the
 * proto files inlined, then the template). Requires @grpc/grpc-js and @grpc/proto-loader
 * from NODE_PATH (the runner's PLUGIN_NATIVE_NODE_PATH; tests point it at the repository's
 * node_modules: `FIXTURE_NODE_PATH`).
 */
export function buildNativeChannelFixture(
  variant: NativeChannelFixtureVariant = 'normal',
  /** Makes otherwise equal builds differ (another version, another digest). */
  build = '1',
): Buffer {
  const protos = {
    cookie: NATIVE_MAGIC_COOKIE_VALUE,
    files: {
      'channel.proto': readFileSync(protoFilePath('channel.proto'), 'utf8'),
      'health.proto': readFileSync(protoFilePath('health.proto'), 'utf8'),
    },
  };
  const template = readFileSync(join(__dirname, 'channel-fixture.template.js'), 'utf8');
  return Buffer.from(
    `#!/usr/bin/env node\n'use strict';\nconst VARIANT = ${JSON.stringify(variant)};\n` +
      `const PROTOS = ${JSON.stringify(protos)};\n${template}// build ${build}\n`,
  );
}

/** The repository's node_modules: what the fixture needs on NODE_PATH. */
export const FIXTURE_NODE_PATH = join(__dirname, '../../../../node_modules');

/** Lower-case hex sha256 of an artifact. */
export function artifactDigest(artifact: Uint8Array): string {
  return hash('sha256', artifact, 'hex');
}

export interface PublisherKey {
  privateKey: KeyObject;
  /** SPKI PEM, as a catalog source's `public_key`. */
  publicKeyPem: string;
}

/** A fresh Ed25519 publisher key. */
export function publisherKey(): PublisherKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export interface FixtureManifestOptions {
  id?: string;
  version?: string;
  capabilities?: string[];
  runtime?: string;
  /** Defaults to the artifact's digest. */
  artifactSha256?: string;
  settings?: Array<{ name: string; type: string; secret?: boolean; per_project?: boolean }>;
}

export interface SignedFixture {
  manifest: Record<string, unknown>;
  /** The exact manifest bytes that were signed. */
  manifestBytes: Buffer;
  signature: Buffer;
  artifact: Buffer;
  digest: string;
}

/**
 * A manifest (the @platform/plugin-sdk format) for `artifact`, signed with `key` over its
 * exact bytes with Ed25519, as a publisher would.
 */
export function signedFixture(
  artifact: Buffer,
  key: PublisherKey,
  options: FixtureManifestOptions = {},
): SignedFixture {
  const digest = artifactDigest(artifact);
  const manifest = {
    id: options.id ?? 'test-chat-channel',
    version: options.version ?? '1.0.0',
    capabilities: options.capabilities ?? ['notification_channel'],
    runtime: options.runtime ?? 'native',
    wit_version: '0.1.0',
    min_service_version: '>=0.1',
    allowed_hosts: [],
    settings: options.settings ?? [
      { name: 'chat_id', type: 'string', per_project: true },
      { name: 'bot_token', type: 'string', secret: true, per_project: true },
      { name: 'service_token', type: 'string', secret: true },
    ],
    artifact_sha256: options.artifactSha256 ?? digest,
  };
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
  return {
    manifest,
    manifestBytes,
    signature: sign(null, manifestBytes, key.privateKey),
    artifact,
    digest,
  };
}

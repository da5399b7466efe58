import { credentials, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadHealthService } from '@platform/plugin-protocol';
import type { PublisherKey } from '@platform/plugin-protocol/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginLoadRequest } from '../../../src/modules/plugin-runner-client/plugin-runner.client';
import { CATALOG_PLUGINS_DIR } from './catalog-plugin-lab';

const ROOT = join(__dirname, '../../../../..');

/** The repository's node_modules: the runner's PLUGIN_NATIVE_NODE_PATH for the channels. */
export const NATIVE_NODE_PATH = join(ROOT, 'node_modules');

export type ChannelName =
  | 'telegram-channel'
  | 'slack-channel'
  | 'teams-channel'
  | 'mattermost-channel'
  | 'maxru-channel'
  | 'email-channel';

export interface BuiltChannel {
  manifest: { id: string; version: string; settings: Array<{ name: string; type: string }> };
  manifestBytes: Buffer;
  signature: Buffer;
  artifact: Buffer;
  sha256: string;
}

/** A catalog channel built by tools/catalog/build-native.mjs and signed with `key`. */
export function buildChannel(name: ChannelName, key: PublisherKey): BuiltChannel {
  const dir = mkdtempSync(join(tmpdir(), `channel-${name}-`));
  try {
    const keyFile = join(dir, 'publisher.pem');
    writeFileSync(keyFile, key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), {
      mode: 0o600,
    });
    const out = join(dir, 'out');
    const summary = JSON.parse(
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'tools/catalog/build-native.mjs'),
          join(CATALOG_PLUGINS_DIR, name),
          '--out',
          out,
          '--key',
          keyFile,
        ],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n')
        .at(-1) as string,
    ) as { sha256: string };
    const manifestBytes = readFileSync(join(out, 'manifest.json'));
    return {
      manifest: JSON.parse(manifestBytes.toString('utf8')),
      manifestBytes,
      signature: Buffer.from(readFileSync(join(out, 'manifest.sig'), 'utf8').trim(), 'base64'),
      artifact: readFileSync(join(out, 'channel.js')),
      sha256: summary.sha256,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Load request the findings service sends for an installation of a native channel. */
export function nativeLoadRequest(
  channel: BuiltChannel,
  pluginId: string,
  publicKeyPem: string,
): PluginLoadRequest {
  return {
    pluginId,
    version: channel.manifest.version,
    versionDigest: channel.sha256,
    runtime: 'native',
    manifest: channel.manifestBytes,
    signature: channel.signature,
    source: { id: 'catalog-test-native', publicKey: publicKeyPem, allowsNative: true },
    artifact: channel.artifact,
    permittedHosts: [],
  };
}

interface HealthClient extends Client {
  Check(
    request: { service: string },
    callback: (error: ServiceError | null, response?: { status: string }) => void,
  ): void;
}

/** `grpc.health.v1` status of one service of the runner (`""`, `native:<plugin id>`). */
export async function runnerHealth(grpcPort: number, service: string): Promise<string> {
  const Health = loadHealthService();
  const client = new Health(
    `127.0.0.1:${grpcPort}`,
    credentials.createInsecure(),
  ) as unknown as HealthClient;
  try {
    return await new Promise((resolve) =>
      client.Check({ service }, (error, response) =>
        resolve(error ? `error ${error.code}` : (response?.status ?? 'none')),
      ),
    );
  } finally {
    client.close();
  }
}

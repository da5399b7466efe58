import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EnvReader } from '@platform/config';
import { buildPlugin, componentCacheDir, type BuiltPlugin } from '@platform/plugin-sdk/build';
import {
  pluginRunnerProcessEnv,
  pluginRunnerGrpcPort,
  startServiceProcess,
  type ServiceProcess,
} from '@platform/testing';
import { FINDINGS_CONFIG } from '../../../src/app/config/config.tokens';
import { readPluginRunnerClientConfig } from '../../../src/app/config/plugin-runner-config';
import {
  NOT_CONFIGURED_PORTS,
  type HostCallPorts,
} from '../../../src/modules/plugin-runner-client/host-call-ports';
import { PluginRunnerClientModule } from '../../../src/modules/plugin-runner-client/plugin-runner-client.module';
import {
  PluginRunnerClient,
  type PluginLoadRequest,
} from '../../../src/modules/plugin-runner-client/plugin-runner.client';

/** The WebAssembly catalog plugins the repository ships (sources in tools/catalog/plugins/). */
export type CatalogPluginName =
  | 'cmdb-enricher'
  | 'cve-enricher'
  | 'fleet-source'
  | 'bdu-enricher'
  | 'jira-provider'
  | 'github-provider'
  | 'trello-provider';

export const CATALOG_PLUGINS_DIR = join(__dirname, '../../../../../tools/catalog/plugins');

/** Componentizing takes 5-80 s on the shared machine; the SDK caches by content hash. */
export const BUILD_TIMEOUT_MS = 300_000;

export const RUNNER_TOKEN = 'catalog-plugins-runner-token-0123456789abcdef';

export interface SignedCatalogPlugin extends BuiltPlugin {
  signature: string;
}

/**
 * A catalog plugin built from its sources with the SDK build command into a component and a
 * manifest signed by `privateKey` (PKCS#8). The component is cached under the stack state
 * directory keyed by the sources' hash, so a test run componentizes a plugin once per change.
 */
export async function buildCatalogPlugin(
  name: CatalogPluginName,
  privateKey: KeyObject,
): Promise<SignedCatalogPlugin> {
  const out = await mkdtemp(join(tmpdir(), `catalog-${name}-`));
  try {
    const built = await buildPlugin({
      sourceDir: join(CATALOG_PLUGINS_DIR, name),
      outDir: out,
      cacheDir: componentCacheDir(process.env),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    if (!built.signature) throw new Error(`${name}: the build wrote no signature`);
    return { ...built, signature: built.signature };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** `host:port` of a URL: what the findings service permits for an admin-entered URL setting. */
export function hostOfUrl(url: string): string {
  return new URL(url).host;
}

/** The Load request the findings service sends for an installation of `plugin`. */
export function loadRequestOf(
  plugin: SignedCatalogPlugin,
  pluginId: string,
  publicKeyPem: string,
  permittedHosts: string[],
): PluginLoadRequest {
  return {
    pluginId,
    version: plugin.manifest.version,
    versionDigest: plugin.sha256,
    runtime: 'wasm',
    manifest: plugin.manifestBytes,
    signature: Buffer.from(plugin.signature, 'base64'),
    source: { id: 'catalog-test', publicKey: publicKeyPem, allowsNative: false },
    artifact: plugin.component,
    permittedHosts,
  };
}

/**
 * The plugin runner as its own process (apps/plugin-runner/src/main.ts), with the egress
 * relaxations a loopback stand-in needs set explicitly: `PLUGIN_EGRESS_ALLOW_HTTP` (the
 * stand-ins speak plain http) and `PLUGIN_EGRESS_ALLOW_LOCAL_DIAL` (they listen on 127.0.0.1).
 */
export async function startRunnerProcess(
  env: Record<string, string> = {},
  /** Node flags of the runner process (benches: `--cpu-prof --cpu-prof-dir=DIR`). */
  nodeArgs: string[] = [],
): Promise<{ runner: ServiceProcess; grpcPort: number }> {
  const runner = startServiceProcess({
    entry: 'apps/plugin-runner/src/main.ts',
    nodeArgs,
    env: pluginRunnerProcessEnv(RUNNER_TOKEN, {
      PLUGIN_EGRESS_ALLOW_HTTP: 'true',
      PLUGIN_EGRESS_ALLOW_LOCAL_DIAL: 'true',
      ...env,
    }),
  });
  try {
    return { runner, grpcPort: await pluginRunnerGrpcPort(runner, 60_000) };
  } catch (error) {
    await runner.stop();
    throw error;
  }
}

/** The findings service's runner client (its Nest module over the typed config). */
export async function runnerClient(
  grpcPort: number,
  ports: Partial<HostCallPorts> = {},
): Promise<{ client: PluginRunnerClient; context: INestApplicationContext }> {
  const reader = new EnvReader({
    PLUGIN_RUNNER_URL: `127.0.0.1:${grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
  });
  const pluginRunner = readPluginRunnerClientConfig(reader);
  reader.done();
  @Global()
  @Module({
    providers: [{ provide: FINDINGS_CONFIG, useValue: { pluginRunner } }],
    exports: [FINDINGS_CONFIG],
  })
  class ConfigModule {}
  @Module({
    imports: [
      ConfigModule,
      PluginRunnerClientModule.register({
        ports: { useValue: { ...NOT_CONFIGURED_PORTS, ...ports } },
      }),
    ],
  })
  class RootModule {}
  const context = await NestFactory.createApplicationContext(RootModule, { logger: false });
  return { client: context.get(PluginRunnerClient), context };
}

/**
 * Installation secrets answered to the runner's get-secret calls, per plugin id; the project
 * secrets of get-project-secret under `<plugin id>/project` (per-project overrides).
 */
export function secretsPort(
  secrets: Record<string, Record<string, string>>,
): Pick<HostCallPorts, 'secrets'> {
  return {
    secrets: {
      getSecret: async (context, name) => secrets[context.pluginId]?.[name],
      getProjectSecret: async (context, name) => secrets[`${context.pluginId}/project`]?.[name],
    },
  };
}

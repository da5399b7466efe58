import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { FIXTURE_NODE_PATH } from '@platform/plugin-protocol/testing';
import { buildPlugin, componentCacheDir, examplePluginDir } from '@platform/plugin-sdk/build';
import {
  pluginRunnerProcessEnv,
  pluginRunnerGrpcPort,
  REPOSITORY_ROOT,
  startServiceProcess,
  type ServiceProcess,
} from '@platform/testing';

const run = promisify(execFile);

/** Componentizing takes 13-80 s on the shared machine; the cache makes it once per change. */
export const BUILD_TIMEOUT_MS = 300_000;

export interface ExampleComponent {
  component: Buffer;
  /** The build's manifest (with artifact_sha256). */
  manifest: Record<string, unknown>;
  digest: string;
}

/** The SDK's zone-enricher example, built (cached) like the runner's tests do. */
export async function zoneEnricherComponent(): Promise<ExampleComponent> {
  const out = await mkdtemp(join(tmpdir(), 'p-zone-'));
  try {
    const built = await buildPlugin({
      sourceDir: examplePluginDir('zone-enricher'),
      outDir: out,
      cacheDir: componentCacheDir(process.env),
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    return {
      component: built.component,
      manifest: JSON.parse(built.manifestBytes.toString('utf8')) as Record<string, unknown>,
      digest: built.sha256,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Other bytes with their own digest: the component plus a trailing custom section (a version
 * that is installed and updated to, never loaded).
 */
export function variantOf(component: Buffer, label: string): Buffer {
  const name = Buffer.from('p3-variant');
  const payload = Buffer.from(label);
  const body = Buffer.concat([Buffer.from([name.length]), name, payload]);
  if (body.length > 127) throw new Error('label too long');
  return Buffer.concat([component, Buffer.from([0x00, body.length]), body]);
}

/** One plugin build directory as build-catalog.mjs reads it (manifest.json + artifact). */
export async function pluginDir(
  root: string,
  manifest: Record<string, unknown>,
  artifact: Buffer,
  artifactName = 'component.wasm',
): Promise<string> {
  const dir = join(root, `${String(manifest['id'])}-${String(manifest['version'])}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, artifactName), artifact);
  await writeFile(
    join(dir, 'manifest.json'),
    JSON.stringify({ ...manifest, artifact_sha256: sha256(artifact) }, null, 2),
  );
  return dir;
}

/** Runs tools/catalog/build-catalog.mjs as `npm run up` and a publisher would. */
export async function buildCatalogDir(options: {
  out: string;
  keyFile?: string;
  dirs: string[];
  revoke?: string[];
}): Promise<{ signed: boolean; plugins: { id: string; versions: string[] }[] }> {
  const args = [join(REPOSITORY_ROOT, 'tools/catalog/build-catalog.mjs'), '--out', options.out];
  if (options.keyFile) args.push('--key', options.keyFile);
  else args.push('--unsigned');
  for (const digest of options.revoke ?? []) args.push('--revoke', digest);
  const { stdout } = await run(process.execPath, [...args, ...options.dirs]);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
    signed: boolean;
    plugins: { id: string; versions: string[] }[];
  };
}

/** A self-signed certificate for 127.0.0.1 (openssl), trusted through PLUGIN_CATALOG_CA_FILE. */
export function selfSignedCertificate(dir: string): { keyFile: string; certFile: string } {
  const keyFile = join(dir, 'tls-key.pem');
  const certFile = join(dir, 'tls-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile };
}

export interface CatalogServer {
  /** `https://127.0.0.1:<port>/` */
  url: string;
  /** Paths asked, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the files of `root` over HTTPS on loopback (a catalog host). */
export async function startCatalogServer(
  root: string,
  tls: { keyFile: string; certFile: string },
): Promise<CatalogServer> {
  const requests: string[] = [];
  const server = https.createServer(
    { key: await readFile(tls.keyFile), cert: await readFile(tls.certFile) },
    (req, res) => {
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
      requests.push(path);
      const file = normalize(join(root, path));
      if (!file.startsWith(root)) {
        res.writeHead(400).end();
        return;
      }
      readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body),
        () => res.writeHead(404).end(),
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The plugin runner as its own process (src/main.ts), as `npm run up` starts it. */
export async function startRunner(token: string): Promise<{ runner: ServiceProcess; url: string }> {
  const runner = startServiceProcess({
    entry: 'apps/plugin-runner/src/main.ts',
    env: pluginRunnerProcessEnv(token, {
      PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
      PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
    }),
  });
  return { runner, url: `127.0.0.1:${String(await pluginRunnerGrpcPort(runner, 30_000))}` };
}

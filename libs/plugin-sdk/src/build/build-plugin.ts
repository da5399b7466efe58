import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseManifest } from '../manifest/manifest';
import type { PluginManifest } from '../manifest/manifest.types';

/** The build command (`npm run plugin:build`), an ES module run by Node as its own process. */
export function pluginBuildScript(): string {
  return join(__dirname, '../../bin/plugin-build.mjs');
}

/** A plugin of the SDK's examples (`libs/plugin-sdk/examples/<name>`), e.g. `zone-enricher`. */
export function examplePluginDir(name: string): string {
  return join(__dirname, '../../examples', name);
}

export interface BuildPluginOptions {
  /** Directory with `manifest.json` (without `artifact_sha256`) and `index.js`. */
  sourceDir: string;
  /** Where component.wasm, manifest.json and manifest.sig are written. */
  outDir: string;
  /** Ed25519 private key (PKCS#8 PEM) that signs the manifest; unsigned without it. */
  privateKeyPem?: string;
  /** Reuse components built from the same content (keyed by hash); builds take 6-30 s. */
  cacheDir?: string;
  /** WASI features left enabled: the result imports wasi:* and a runner refuses it. */
  enableWasi?: string[];
  /** Longest time a build may take (default 300 s). */
  timeoutMs?: number;
}

export interface BuiltPlugin {
  component: Buffer;
  manifestBytes: Buffer;
  manifest: PluginManifest;
  /** Base64 signature (content of manifest.sig) when a key was given. */
  signature?: string;
  sha256: string;
  /** The component came from the cache. */
  cached: boolean;
  buildMs: number;
}

const LOCK_STALE_MS = 10 * 60_000;

/**
 * Runs the build command in a child process and reads back what it wrote; the manifest is
 * validated. Builds of the same plugin with the same cache directory wait for each other, so
 * parallel test files componentize a plugin once.
 */
export async function buildPlugin(options: BuildPluginOptions): Promise<BuiltPlugin> {
  const sourceDir = resolve(options.sourceDir);
  const outDir = resolve(options.outDir);
  const args = [pluginBuildScript(), sourceDir, '--out', outDir];
  if (options.enableWasi?.length) args.push('--enable-wasi', options.enableWasi.join(','));
  let release: (() => Promise<void>) | undefined;
  if (options.cacheDir) {
    args.push('--cache', resolve(options.cacheDir));
    release = await lock(
      resolve(options.cacheDir),
      `${sourceDir}\0${(options.enableWasi ?? []).join(',')}`,
    );
  }
  const keyDir = options.privateKeyPem ? await mkdtemp(join(tmpdir(), 'plugin-key-')) : undefined;
  try {
    if (keyDir && options.privateKeyPem) {
      const keyFile = join(keyDir, 'key.pem');
      await writeFile(keyFile, options.privateKeyPem, { mode: 0o600 });
      args.push('--key', keyFile);
    }
    const stdout = await run(args, options.timeoutMs ?? 300_000);
    const summary = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      sha256: string;
      cached: boolean;
      ms: number;
    };
    const component = await readFile(join(outDir, 'component.wasm'));
    const manifestBytes = await readFile(join(outDir, 'manifest.json'));
    const signature = options.privateKeyPem
      ? (await readFile(join(outDir, 'manifest.sig'), 'utf8')).trim()
      : undefined;
    return {
      component,
      manifestBytes,
      manifest: parseManifest(manifestBytes),
      ...(signature ? { signature } : {}),
      sha256: summary.sha256,
      cached: summary.cached,
      buildMs: summary.ms,
    };
  } finally {
    if (keyDir) await rm(keyDir, { recursive: true, force: true });
    await release?.();
  }
}

function run(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(
      process.execPath,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`plugin build failed: ${error.message}\n${stderr}`));
        } else {
          resolveRun(stdout);
        }
      },
    );
  });
}

/** A directory lock under the cache (mkdir is atomic); a lock older than 10 min is stale. */
async function lock(cacheDir: string, name: string): Promise<() => Promise<void>> {
  const dir = join(cacheDir, 'locks', createHash('sha256').update(name).digest('hex'));
  await mkdir(join(cacheDir, 'locks'), { recursive: true });
  for (;;) {
    try {
      await mkdir(dir);
      return () => rm(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await stat(dir).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > LOCK_STALE_MS) await rm(dir, { recursive: true, force: true });
      // Another process is componentizing this plugin (6-30 s); look again shortly.
      else await delay(250);
    }
  }
}

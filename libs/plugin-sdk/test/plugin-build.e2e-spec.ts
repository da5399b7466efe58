import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  artifactDigest,
  generateSigningKeyPair,
  verifyManifestSignature,
  verifyPluginArtifact,
} from '../src';
import { buildPlugin, componentCacheDir, examplePluginDir, pluginBuildScript } from '../src/build';

/** Componentizing one plugin takes 6-30 s on a quiet machine, minutes on a loaded one. */
const BUILD_TIMEOUT_MS = 300_000;

function runBuildCommand(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [pluginBuildScript(), ...args], (error, _stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

type Summary = {
  sha256?: string;
  cached?: boolean;
  splice?: string | null;
  spliceSha256?: string | null;
  error?: string;
};

/** `plugin-build --batch` with one line of arguments per build; its summary lines, parsed. */
function runBatch(builds: string[][]): Promise<{ code: number; summaries: Summary[] }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [pluginBuildScript(), '--batch'],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          summaries: stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Summary),
        }),
    );
    child.stdin?.end(builds.map((args) => `${JSON.stringify(args)}\n`).join(''));
  });
}

describe('plugin build command (componentize-js, offline, signed)', () => {
  let work: string;
  const publisher = generateSigningKeyPair();

  async function pluginDir(name: string, manifest: unknown, source = 'export const x = 1;') {
    const dir = join(work, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(join(dir, 'index.js'), source);
    return dir;
  }
  const base = {
    id: 'p',
    version: '1.0.0',
    capabilities: ['finding_enricher'],
    min_service_version: '>=0.33',
    allowed_hosts: [],
    settings: [],
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'plugin-build-test-'));
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it(
    'turns a JavaScript plugin into a component with a signed manifest naming its digest',
    async () => {
      const out = join(work, 'zone');
      const built = await buildPlugin({
        sourceDir: examplePluginDir('zone-enricher'),
        outDir: out,
        privateKeyPem: publisher.privateKeyPem,
        cacheDir: componentCacheDir(process.env),
        timeoutMs: BUILD_TIMEOUT_MS,
      });
      // A component (layer 1), not a core module: \0asm, version 0x0d, layer 1.
      expect([...built.component.subarray(0, 8)]).toEqual([0, 0x61, 0x73, 0x6d, 0x0d, 0, 1, 0]);
      expect(built.sha256).toBe(artifactDigest(built.component));
      const template = JSON.parse(
        await readFile(join(examplePluginDir('zone-enricher'), 'manifest.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(built.manifest).toEqual({
        ...template,
        runtime: 'wasm',
        wit_version: '0.1.0',
        artifact_sha256: built.sha256,
      });
      // What was written is what a host verifies: exact manifest bytes, signature, digest.
      // (Buffer.equals: Jest's deep equality walks 12 MB element by element for minutes.)
      expect((await readFile(join(out, 'component.wasm'))).equals(built.component)).toBe(true);
      expect((await readFile(join(out, 'manifest.json'))).equals(built.manifestBytes)).toBe(true);
      expect((await readFile(join(out, 'manifest.sig'), 'utf8')).trim()).toBe(built.signature);
      expect(
        verifyPluginArtifact({
          artifact: built.component,
          manifestBytes: built.manifestBytes,
          signature: built.signature,
          publicKey: publisher.publicKeyPem,
        }).id,
      ).toBe('zone-enricher');
      expect(
        verifyManifestSignature(
          built.manifestBytes,
          built.signature ?? '',
          generateSigningKeyPair().publicKeyPem,
        ),
      ).toBe(false);

      // The same sources again come from the cache, byte for byte; unsigned without a key.
      const again = await buildPlugin({
        sourceDir: examplePluginDir('zone-enricher'),
        outDir: join(work, 'zone-again'),
        cacheDir: componentCacheDir(process.env),
        timeoutMs: BUILD_TIMEOUT_MS,
      });
      expect(again.cached).toBe(true);
      expect(again.sha256).toBe(built.sha256);
      expect(again.signature).toBeUndefined();
    },
    2 * BUILD_TIMEOUT_MS,
  );

  it(
    '--batch builds the plugin of each line of stdin in one process; a plugin of a world built before reuses its splice',
    async () => {
      const tiny = await pluginDir(
        'tiny-enricher',
        { ...base, id: 'tiny-enricher' },
        "export const findingEnricher = { enrich: () => [{ key: 'tiny', value: 'yes' }] };",
      );
      // A fresh cache: the tiny enricher splices the world into it, zone-enricher (another
      // plugin, same world) reads it there, and zone-enricher without a cache splices anew.
      const cache = join(work, 'batch-cache');
      const outs = ['batch-tiny', 'batch-zone', 'batch-zone-uncached'].map((name) =>
        join(work, name),
      );
      const { code, summaries } = await runBatch([
        [tiny, '--out', outs[0], '--cache', cache],
        [examplePluginDir('zone-enricher'), '--out', outs[1], '--cache', cache],
        [examplePluginDir('zone-enricher'), '--out', outs[2]],
        [join(work, 'no-such-plugin')],
      ]);
      // A build that fails is a line too, and the exit status tells.
      expect(code).toBe(1);
      expect(summaries).toHaveLength(4);
      expect(summaries[3].error).toMatch(/cannot read .*no-such-plugin[\\/]manifest\.json/);
      expect(summaries.slice(0, 3).map((summary) => [summary.cached, summary.splice])).toEqual([
        [false, 'built'],
        [false, 'cached'],
        [false, 'uncached'],
      ]);
      // The cached splice is the one the splicer makes for zone-enricher. (The components
      // themselves differ from build to build, cached or not: componentize-js's output holds
      // the build time, its temporary paths and random hash seeds.)
      expect(summaries[0].spliceSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(summaries[1].spliceSha256).toBe(summaries[0].spliceSha256);
      expect(summaries[2].spliceSha256).toBe(summaries[0].spliceSha256);
      for (const [index, out] of outs.entries()) {
        const component = await readFile(join(out, 'component.wasm'));
        expect([...component.subarray(0, 8)]).toEqual([0, 0x61, 0x73, 0x6d, 0x0d, 0, 1, 0]);
        expect(summaries[index].sha256).toBe(artifactDigest(component));
      }
    },
    2 * BUILD_TIMEOUT_MS,
  );

  describe('refuses a plugin it cannot build, before componentizing', () => {
    it.each([
      [
        'a manifest carrying its own digest',
        { ...base, artifact_sha256: 'a'.repeat(64) },
        /must not carry artifact_sha256/,
      ],
      ['a native plugin', { ...base, runtime: 'native' }, /only runtime "wasm"/],
      [
        'another WIT version',
        { ...base, wit_version: '0.2.0' },
        /targets WIT 0\.2\.0; this SDK builds 0\.1\.0/,
      ],
      [
        'a capability without a WebAssembly export',
        { ...base, capabilities: ['notification_channel'] },
        /has no WebAssembly export interface/,
      ],
      ['no capability', { ...base, capabilities: [] }, /declares no capability/],
    ])('%s', async (name, manifest, message) => {
      const dir = await pluginDir(name.replace(/\W+/g, '-'), manifest);
      const result = await runBuildCommand([dir, '--out', join(dir, 'dist')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
    });

    it(
      'an unknown WASI feature and a key that is not Ed25519',
      async () => {
        const dir = await pluginDir('keys', base);
        expect((await runBuildCommand([dir, '--enable-wasi', 'sockets'])).stderr).toMatch(
          /unknown WASI feature sockets/,
        );
        const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const keyFile = join(work, 'rsa.pem');
        await writeFile(keyFile, rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
        const result = await runBuildCommand([dir, '--out', join(dir, 'dist'), '--key', keyFile]);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/--key must be an Ed25519 private key/);
      },
      BUILD_TIMEOUT_MS,
    );
  });
});

import { sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadRequest } from '@platform/plugin-protocol';
import {
  pluginRunnerProcessEnv,
  pluginRunnerGrpcPort,
  startServiceProcess,
  type ServiceProcess,
} from '@platform/testing';
import { PluginLoadError } from '../../src/plugin-host/plugin-host';
import {
  closeTranspileCache,
  compileComponent,
  configureTranspileCache,
  transpileCacheStats,
} from '../../src/wasm/compile/component-compiler';
import {
  auth,
  PROJECT,
  publisher,
  runnerClient,
  TOKEN,
  unary,
  invoke,
} from '../runner-api/runner-api-harness';
import { tinyComponent } from './support/tiny-component';
import { finding, type TestComponent } from './support/wasm-lab';

jest.setTimeout(120_000);

const OPTIONS = { memoryLimitBytes: 64 * 1024 * 1024, timeoutMs: 60_000 };

/**
 * The runner's disk cache of transpiles (docs/plugins/limits.md "Load"): a second runner
 * process loads a component without running jco; a damaged entry is transpiled again; a
 * refused component leaves no entry.
 */
describe('transpile cache: what jco made, reused by the next runner process', () => {
  let tiny: TestComponent;
  let root: string;
  let dir: string;
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }),
  };
  const entries = async () => (await readdir(dir)).filter((n) => n.endsWith('.entry'));

  beforeAll(async () => {
    tiny = await tinyComponent();
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'transpile-cache-e2e-'));
    dir = join(root, 'transpiles');
    warnings.length = 0;
  });
  afterEach(() => {
    closeTranspileCache();
    rmSync(root, { recursive: true, force: true });
  });

  it('stores only an accepted component (0600 in a 0700 directory); a refused one leaves no entry', async () => {
    configureTranspileCache({ directory: dir, maxBytes: 64 * 1024 * 1024 }, log);
    // The tiny enricher exports no ticketing provider: refused after its transpile.
    const refused = await compileComponent(
      tiny.component,
      { ...tiny.manifest, capabilities: ['ticketing_provider'] },
      OPTIONS,
      tiny.digest,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PluginLoadError);
    expect(refused).toMatchObject({ code: 'missing_exports' });
    expect(await entries()).toEqual([]);

    const first = await compileComponent(tiny.component, tiny.manifest, OPTIONS, tiny.digest);
    expect(first.transpiledFrom).toBe('jco');
    const [entry] = await entries();
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, entry))).mode & 0o777).toBe(0o600);

    const second = await compileComponent(tiny.component, tiny.manifest, OPTIONS, tiny.digest);
    expect(second.transpiledFrom).toBe('cache');
    expect(second.exports).toEqual(first.exports);
    expect(second.glue).toBe(first.glue);
    // The checks still run on a cached transpile: the refusal stays a refusal.
    await expect(
      compileComponent(
        tiny.component,
        { ...tiny.manifest, capabilities: ['ticketing_provider'] },
        OPTIONS,
        tiny.digest,
      ),
    ).rejects.toMatchObject({ code: 'missing_exports' });
    expect(transpileCacheStats()).toMatchObject({ stored: 1, discarded: 0 });
    expect(warnings).toEqual([]);
  });

  it('transpiles again when the entry is corrupted or truncated: the load succeeds, a warning says why', async () => {
    configureTranspileCache({ directory: dir, maxBytes: 64 * 1024 * 1024 }, log);
    await compileComponent(tiny.component, tiny.manifest, OPTIONS, tiny.digest);
    const [entry] = await entries();
    const file = join(dir, entry);
    const bytes = await readFile(file);

    const corrupted = Buffer.from(bytes);
    corrupted[corrupted.length - 10] ^= 0xff;
    await writeFile(file, corrupted);
    const afterCorruption = await compileComponent(
      tiny.component,
      tiny.manifest,
      OPTIONS,
      tiny.digest,
    );
    expect(afterCorruption.transpiledFrom).toBe('jco');

    await writeFile(file, bytes.subarray(0, bytes.length >> 1));
    const afterTruncation = await compileComponent(
      tiny.component,
      tiny.manifest,
      OPTIONS,
      tiny.digest,
    );
    expect(afterTruncation.transpiledFrom).toBe('jco');

    expect(warnings.map((w) => [w.message, w.fields['reason']])).toEqual([
      ['transpile cache entry ignored', 'integrity digest mismatch'],
      ['transpile cache entry ignored', 'integrity digest mismatch'],
    ]);
    // Stored again each time, intact: the next load reads it.
    expect(await readFile(file)).toEqual(bytes);
    const next = await compileComponent(tiny.component, tiny.manifest, OPTIONS, tiny.digest);
    expect(next.transpiledFrom).toBe('cache');
  });

  it('a second runner process loads the component from the cache and runs it', async () => {
    const load = (): LoadRequest => ({
      plugin_id: 'tiny-1',
      version: tiny.manifest.version,
      version_digest: tiny.digest,
      runtime: 'wasm',
      manifest: tiny.manifestBytes,
      signature: sign(null, tiny.manifestBytes, publisher.privateKey),
      source: { id: 'test-source', public_key: publisher.publicKeyPem, allows_native: false },
      artifact: tiny.component,
      permitted_hosts: [],
    });
    const loadedIn = async (): Promise<string> => {
      const runner = startRunner(dir);
      try {
        const grpcPort = await servingPort(runner);
        const client = runnerClient(grpcPort);
        try {
          const loaded = await unary(client.Load, client, load(), auth());
          expect(loaded.error).toBeUndefined();
          const result = await invoke(
            client,
            {
              context: {
                plugin_id: 'tiny-1',
                version_digest: tiny.digest,
                project_id: PROJECT,
                event_id: 'event-1',
              },
              capability: 'finding_enricher',
              operation: 'enrich',
              payload_json: JSON.stringify({ finding: finding('r1') }),
              settings_json: '{}',
              idempotency_key: '',
              deadline_ms: 0,
            },
            () => ({}),
          );
          expect(result.result?.ok).toBe(true);
        } finally {
          client.close();
        }
        const line = runner.jsonLines().find((l) => l['msg'] === 'wasm plugin loaded');
        return String(line?.['transpiled_from']);
      } finally {
        await runner.stop();
      }
    };
    expect(await loadedIn()).toBe('jco');
    expect(await entries()).toHaveLength(1);
    expect(await loadedIn()).toBe('cache');
  });
});

function startRunner(cacheDir: string): ServiceProcess {
  return startServiceProcess({
    entry: 'apps/plugin-runner/src/main.ts',
    env: pluginRunnerProcessEnv(TOKEN, {
      PLUGIN_RUNNER_TRANSPILE_CACHE_DIR: cacheDir,
    }),
  });
}

function servingPort(runner: ServiceProcess): Promise<number> {
  return pluginRunnerGrpcPort(runner, 60_000);
}

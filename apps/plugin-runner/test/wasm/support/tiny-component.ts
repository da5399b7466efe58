import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { artifactDigest, witDirectory, WIT_VERSION } from '@platform/plugin-sdk';
import type { TestComponent } from './wasm-lab';

/**
 * The tiny enricher of test/wasm/plugins/tiny (2 KB, answers one tag `soak: ok`; with
 * `counter`/`grow` its instance state, see build-tiny.mjs), built now by its script in a child
 * process (jco is an ES module Jest cannot load).
 */
export async function tinyComponent(
  mode: 'tags' | 'counter' | 'grow' = 'tags',
): Promise<TestComponent> {
  const dir = await mkdtemp(join(tmpdir(), 'wasm-tiny-'));
  try {
    const out = join(dir, 'tiny.wasm');
    await promisify(execFile)(process.execPath, [
      join(__dirname, '../plugins/tiny/build-tiny.mjs'),
      join(witDirectory(), 'plugin.wit'),
      out,
      mode,
    ]);
    const component = await readFile(out);
    const digest = artifactDigest(component);
    const manifest = {
      id: 'tiny-enricher',
      version: '1.0.0',
      capabilities: ['finding_enricher' as const],
      runtime: 'wasm' as const,
      wit_version: WIT_VERSION,
      min_service_version: '>=0.1',
      allowed_hosts: [],
      settings: [],
      artifact_sha256: digest,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest));
    return { component, manifest, manifestBytes, digest };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

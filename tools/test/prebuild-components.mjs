#!/usr/bin/env node
// Componentizes, before Jest starts, every WebAssembly plugin the tests build, into the
// component cache the tests read (libs/plugin-sdk/src/build/component-cache.ts): two builds at
// a time, one per core.
//
// Why: a fresh machine has an empty cache, and the test files that build the same plugin wait
// for each other on the cache's lock (libs/plugin-sdk/src/build/build-plugin.ts) — with the
// longest files first, both Jest workers started with catalog files and one of them sat idle
// on a lock while the other componentized (14 components, 12-30 s each). Built here, every
// test file finds its components in the cache. A plugin missing from the list below is still
// built by its test (slower, not wrong); a listed one no test uses only costs its build.
//
//   node tools/test/prebuild-components.mjs        (tools/test.sh runs it in a full run)
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD = join(ROOT, 'libs/plugin-sdk/bin/plugin-build.mjs');
const PARALLEL = 2;

// As componentCacheDir() in libs/plugin-sdk/src/build/component-cache.ts.
const cacheDir =
  process.env.PLUGIN_COMPONENT_CACHE ??
  join(process.env.STACK_STATE_DIR ?? '/var/tmp/secplatform-stack', 'plugin-components');

async function wasmCatalogPlugins() {
  const dir = join(ROOT, 'tools/catalog/plugins');
  const names = await readdir(dir);
  const wasm = [];
  for (const name of names) {
    // Native channels are not componentized (tools/catalog/native builds them).
    const manifest = JSON.parse(await readFile(join(dir, name, 'manifest.json'), 'utf8'));
    if ((manifest.runtime ?? 'wasm') === 'wasm') wasm.push({ dir: join(dir, name) });
  }
  return wasm;
}

/** Every build a test file asks for: source directory and the WASI features it leaves on. */
async function builds() {
  return [
    ...(await wasmCatalogPlugins()),
    { dir: join(ROOT, 'apps/findings-service/test/enrichment/fixtures/hostile-enricher') },
    { dir: join(ROOT, 'apps/findings-service/test/catalog-plugins/fixtures/stubborn-validator') },
    { dir: join(ROOT, 'apps/findings-service/test/tickets/fixtures/jira-like-provider') },
    { dir: join(ROOT, 'libs/plugin-sdk/examples/zone-enricher') },
    { dir: join(ROOT, 'libs/plugin-sdk/examples/zone-enricher'), wasi: ['stdio'] },
    { dir: join(ROOT, 'apps/plugin-runner/test/wasm/plugins/probe') },
    { dir: join(ROOT, 'apps/plugin-runner/test/wasm/plugins/probe'), wasi: ['stdio'] },
  ];
}

function build({ dir, wasi }) {
  return new Promise((resolveBuild) => {
    void mkdtemp(join(tmpdir(), 'prebuild-')).then((out) => {
      const args = [BUILD, dir, '--out', out, '--cache', cacheDir];
      if (wasi) args.push('--enable-wasi', wasi.join(','));
      execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        void rm(out, { recursive: true, force: true });
        const name = `${relative(ROOT, dir)}${wasi ? ` (wasi ${wasi.join(',')})` : ''}`;
        if (error) {
          // Not fatal: the test that needs it builds it again and reports the failure itself.
          process.stderr.write(`prebuild-components: ${name} failed: ${stderr || error.message}\n`);
        } else {
          const summary = JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
          process.stderr.write(
            `prebuild-components: ${name} ${summary.cached ? 'cached' : `built in ${summary.ms} ms`}\n`,
          );
        }
        resolveBuild();
      });
    });
  });
}

const queue = await builds();
const started = Date.now();
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await build(next);
  }),
);
process.stderr.write(
  `prebuild-components: done in ${Math.round((Date.now() - started) / 1000)} s\n`,
);

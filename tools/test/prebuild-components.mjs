#!/usr/bin/env node
// Componentizes, before Jest starts, every WebAssembly plugin the tests build, into the
// component cache the tests read (libs/plugin-sdk/src/build/component-cache.ts): two builds at
// a time, one per core, each lane one `plugin-build --batch` process — a process's first build
// costs ~9 s of CPU, the next ones ~2 s (libs/plugin-sdk/bin/plugin-build.mjs).
//
// Why: a fresh machine has an empty cache, and the test files that build the same plugin wait
// for each other on the cache's lock (libs/plugin-sdk/src/build/build-plugin.ts) — with the
// longest files first, both Jest workers started with catalog files and one of them sat idle
// on a lock while the other componentized (14 components, 12-30 s each). Built here, every
// test file finds its components in the cache. A plugin missing from the list below is still
// built by its test (slower, not wrong); a listed one no test uses only costs its build.
//
//   node tools/test/prebuild-components.mjs        (tools/test.sh runs it in a full run)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
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

/**
 * The first build of each world (capabilities and WASI features) comes first: its splice goes
 * into the cache's splice directory (libs/plugin-sdk/bin/splice-cache.mjs), where the later
 * builds of that world, in either lane, find it.
 */
async function firstOfEachWorldFirst(list) {
  const seen = new Set();
  const first = [];
  const later = [];
  for (const item of list) {
    const manifest = JSON.parse(await readFile(join(item.dir, 'manifest.json'), 'utf8'));
    const world = JSON.stringify([manifest.capabilities, item.wasi ?? []]);
    (seen.has(world) ? later : first).push(item);
    seen.add(world);
  }
  return [...first, ...later];
}

/** A `plugin-build --batch` process: a line of arguments in, its summary line out. */
function startBuilder() {
  const child = spawn(process.execPath, [BUILD, '--batch'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // A process that died reads as the end of its lines; a write to it must not throw.
  child.stdin.on('error', () => {});
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    /** @returns {Promise<Record<string, any> | undefined>} undefined: the process ended */
    async build(/** @type {string[]} */ args) {
      child.stdin.write(`${JSON.stringify(args)}\n`);
      const { value, done } = await lines.next();
      return done ? undefined : JSON.parse(value);
    },
    async end() {
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    },
  };
}

/** Builds from the queue until it is empty, in one builder process (another if it dies). */
async function lane(queue) {
  let builder;
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { dir, wasi } = next;
    const out = await mkdtemp(join(tmpdir(), 'prebuild-'));
    const args = [dir, '--out', out, '--cache', cacheDir];
    if (wasi) args.push('--enable-wasi', wasi.join(','));
    builder ??= startBuilder();
    const summary = await builder.build(args);
    if (!summary) builder = undefined;
    await rm(out, { recursive: true, force: true });
    const name = `${relative(ROOT, dir)}${wasi ? ` (wasi ${wasi.join(',')})` : ''}`;
    // A failure is not fatal: the test that needs the plugin builds it again and reports it.
    let outcome = 'failed';
    if (summary?.sha256) {
      outcome = summary.cached ? 'cached' : `built in ${summary.ms} ms (splice ${summary.splice})`;
    }
    process.stderr.write(`prebuild-components: ${name} ${outcome}\n`);
  }
  await builder?.end();
}

const queue = await firstOfEachWorldFirst(await builds());
const started = Date.now();
await Promise.all(Array.from({ length: PARALLEL }, () => lane(queue)));
process.stderr.write(
  `prebuild-components: done in ${Math.round((Date.now() - started) / 1000)} s\n`,
);

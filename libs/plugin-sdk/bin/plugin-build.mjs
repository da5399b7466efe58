#!/usr/bin/env node
// @ts-check
/**
 * plugin-build: turns a plugin written in JavaScript into a signed tier-1 artifact, offline.
 *
 *   npm run plugin:build -- <plugin-dir> [--out <dir>] [--key <ed25519-private-key.pem>]
 *                                       [--cache <dir>] [--enable-wasi <feature,...>]
 *
 * <plugin-dir> holds `manifest.json` (every manifest field except `artifact_sha256`;
 * `runtime` defaults to wasm and `wit_version` to the SDK's) and `index.js`, an ES module
 * exporting one object per capability (`findingEnricher`, `findingSource`,
 * `ticketingProvider`, `configValidator`) and importing host calls from `findsvc:plugin/host@<version>`.
 *
 * Writes <out>/component.wasm, <out>/manifest.json (with the component's SHA-256) and, with
 * --key, <out>/manifest.sig (base64 Ed25519 signature of the exact manifest.json bytes).
 * <out> defaults to <plugin-dir>/dist. The last stdout line is a JSON summary.
 *
 * The component is built with componentize-js with every WASI feature disabled, so it imports
 * only the host interface. --enable-wasi builds one that imports wasi:* interfaces — the
 * runner refuses such a component; the option exists to prove that.
 * --cache <dir> reuses a component built from the same sources, WIT and SDK (keyed by
 * their content hash): componentizing takes 6-30 s. It also keeps, under <dir>/splice, the
 * engine spliced with the bindings of each world, which plugins of the same capabilities and
 * WASI features share (splice-cache.mjs). The summary's `splice` says where the splice came
 * from: "cached", "built" (and stored), "uncached"; null when the component was cached.
 *
 *   plugin-build --batch      (stdin: one JSON array of the arguments above a line)
 *
 * builds each line's plugin in this one process and writes one summary line each
 * (`{"error": ...}` for a build that failed; the exit status is then 1). The first build of a
 * process spends ~6 s of CPU growing the wasm memory of componentize-js's splicer (page by
 * page, each growth a V8 garbage collection); the next ones reuse it, ~2 s of CPU each.
 */
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { answerGuardEntry } from './answer-guard.mjs';
import { withSpliceCache } from './splice-cache.mjs';

const WASI_FEATURES = ['stdio', 'random', 'clocks', 'http', 'fetch-event'];
const WIT_FILE = join(dirname(fileURLToPath(import.meta.url)), '../wit/plugin.wit');
/** Capability of the manifest -> export interface of the WIT world. */
const CAPABILITY_INTERFACES = {
  finding_enricher: 'finding-enricher',
  finding_source: 'finding-source',
  ticketing_provider: 'ticketing-provider',
  config_validator: 'config-validator',
};

/** A build refused or failed: its message is the command's error. */
class BuildError extends Error {}

/** @param {string} message @returns {never} */
function fail(message) {
  throw new BuildError(message);
}

/** @param {string} path */
async function readJson(path) {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    return fail(`cannot read ${path}: ${/** @type {Error} */ (error).message}`);
  }
}

/** Every source file of the plugin (sorted), for the cache key. @param {string} root */
async function sourceFiles(root) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} dir */
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === 'dist' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(m?js|json)$/.test(entry.name)) files.push(path);
    }
  };
  await walk(root);
  return files.sort();
}

/** One build; returns its summary. @param {string[]} args as on the command line */
async function build(args) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      key: { type: 'string' },
      cache: { type: 'string' },
      'enable-wasi': { type: 'string' },
    },
  });
  if (positionals.length !== 1)
    fail('usage: plugin-build <plugin-dir> [--out <dir>] [--key <pem>] [--cache <dir>]');
  const pluginDir = resolve(positionals[0]);
  const outDir = resolve(values.out ?? join(pluginDir, 'dist'));
  const enabled = (values['enable-wasi'] ?? '').split(',').filter(Boolean);
  for (const feature of enabled) {
    if (!WASI_FEATURES.includes(feature)) fail(`unknown WASI feature ${feature}`);
  }

  // The key is checked before the 6-30 s of componentizing.
  let key;
  if (values.key) {
    try {
      key = createPrivateKey(await readFile(resolve(values.key), 'utf8'));
    } catch (error) {
      fail(`cannot read the key ${values.key}: ${/** @type {Error} */ (error).message}`);
    }
    if (key?.asymmetricKeyType !== 'ed25519') fail('--key must be an Ed25519 private key (PEM)');
  }

  const template = await readJson(join(pluginDir, 'manifest.json'));
  if (typeof template !== 'object' || template === null || Array.isArray(template)) {
    fail('manifest.json must be a JSON object');
  }
  if ('artifact_sha256' in template)
    fail('manifest.json must not carry artifact_sha256 (the build writes it)');
  const witText = await readFile(WIT_FILE, 'utf8');
  const witVersion = /^package findsvc:plugin@([0-9.]+);/m.exec(witText)?.[1];
  if (!witVersion) fail(`${WIT_FILE} names no findsvc:plugin version`);
  const manifest = { runtime: 'wasm', wit_version: witVersion, ...template };
  if (manifest.runtime !== 'wasm') fail('only runtime "wasm" plugins are built into components');
  if (manifest.wit_version !== witVersion) {
    fail(`manifest.json targets WIT ${manifest.wit_version}; this SDK builds ${witVersion}`);
  }
  const capabilities = Array.isArray(manifest.capabilities) ? manifest.capabilities : [];
  const exports = capabilities.map((/** @type {string} */ c) => {
    const name = CAPABILITY_INTERFACES[/** @type {keyof CAPABILITY_INTERFACES} */ (c)];
    return name ?? fail(`capability ${JSON.stringify(c)} has no WebAssembly export interface`);
  });
  if (exports.length === 0) fail('manifest.json declares no capability');

  // The world of this plugin: the SDK's package plus a world importing the host interface and
  // exporting exactly the declared capabilities.
  const world = `\nworld plugin {\n  import host;\n${exports.map((e) => `  export ${e};\n`).join('')}}\n`;
  const entry = join(pluginDir, 'index.js');
  const files = await sourceFiles(pluginDir);
  const { version: componentizeVersion } = await import('@bytecodealliance/componentize-js');
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ componentizeVersion, enabled, world }));
  hash.update(witText);
  const guardSource = answerGuardEntry(capabilities, './plugin/index.js');
  hash.update(guardSource);
  for (const file of files) {
    if (relative(pluginDir, file) === 'manifest.json') continue;
    hash
      .update(relative(pluginDir, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  const cacheKey = hash.digest('hex');

  const started = Date.now();
  let component;
  let cached = false;
  /** @type {{ splice: string | null, spliceSha256: string | null }} */
  let splice = { splice: null, spliceSha256: null };
  const cacheFile = values.cache ? join(resolve(values.cache), `${cacheKey}.wasm`) : undefined;
  if (cacheFile) {
    component = await readFile(cacheFile).catch(() => undefined);
    cached = component !== undefined;
  }
  if (!component) {
    const witDir = await mkdtemp(join(tmpdir(), 'plugin-build-wit-'));
    const entryDir = await mkdtemp(join(tmpdir(), 'plugin-build-entry-'));
    try {
      await writeFile(join(witDir, 'plugin.wit'), witText + world);
      // The component's entry is the answer guard around index.js (answer-guard.mjs), next to
      // a copy of the plugin's sources (componentize-js resolves imports inside the entry's
      // directory only).
      // Symbolic links are followed: a file linked into the plugin directory from elsewhere
      // (the catalog providers' shared provider-kit.js) is built as if it were there.
      await cp(pluginDir, join(entryDir, 'plugin'), {
        recursive: true,
        dereference: true,
        filter: (path) => !/(^|[\\/])(dist|node_modules)$/.test(relative(pluginDir, path)),
      });
      const guardEntry = join(entryDir, 'entry.js');
      await writeFile(guardEntry, guardSource);
      // preview2-shim 0.26 starts without preopened directories: componentize-js could not
      // read the WIT (docs/plugins/build.md).
      const { _setPreopens } = await import('@bytecodealliance/preview2-shim/filesystem');
      _setPreopens({ '/': '/' });
      const { componentize } = await import('@bytecodealliance/componentize-js');
      const disableFeatures = /** @type {any} */ (
        WASI_FEATURES.filter((f) => !enabled.includes(f))
      );
      const spliceDir = values.cache ? join(resolve(values.cache), 'splice') : undefined;
      const { value: built, ...spliced } = await withSpliceCache(
        spliceDir,
        componentizeVersion,
        () =>
          componentize({
            sourcePath: guardEntry,
            witPath: witDir,
            worldName: 'plugin',
            disableFeatures,
          }),
      );
      component = Buffer.from(built.component);
      splice = spliced;
    } finally {
      await rm(witDir, { recursive: true, force: true });
      await rm(entryDir, { recursive: true, force: true });
    }
    if (cacheFile) {
      await mkdir(dirname(cacheFile), { recursive: true });
      const partial = `${cacheFile}.${process.pid}.tmp`;
      await writeFile(partial, component);
      await rename(partial, cacheFile);
    }
  }

  const sha256 = createHash('sha256').update(component).digest('hex');
  const manifestBytes = Buffer.from(
    `${JSON.stringify({ ...manifest, artifact_sha256: sha256 }, null, 2)}\n`,
  );
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'component.wasm'), component);
  await writeFile(join(outDir, 'manifest.json'), manifestBytes);
  let signature;
  if (key) {
    signature = join(outDir, 'manifest.sig');
    await writeFile(signature, `${sign(null, manifestBytes, key).toString('base64')}\n`);
  } else {
    await rm(join(outDir, 'manifest.sig'), { force: true });
  }
  return {
    component: join(outDir, 'component.wasm'),
    manifest: join(outDir, 'manifest.json'),
    signature: signature ?? null,
    sha256,
    bytes: component.length,
    cached,
    ...splice,
    ms: Date.now() - started,
  };
}

/** @param {unknown} error */
function errorMessage(error) {
  if (error instanceof BuildError) return error.message;
  return String(/** @type {Error} */ (error)?.stack ?? error);
}

/** @param {unknown} line */
function printLine(line) {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] !== '--batch') return printLine(await build(args));
  let failed = false;
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    try {
      printLine(await build(JSON.parse(line)));
    } catch (error) {
      failed = true;
      process.stderr.write(`plugin-build: ${errorMessage(error)}\n`);
      printLine({ error: errorMessage(error) });
    }
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`plugin-build: ${errorMessage(error)}\n`);
  process.exit(1);
});

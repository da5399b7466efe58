// @ts-check
/**
 * Splice cache of plugin-build (`--cache <dir>` keeps it under <dir>/splice).
 *
 * componentize-js first splices the bindings of the WIT world into the StarlingMonkey engine
 * (`splicer.spliceBindings`, ~0.7 s of CPU once the splicer's memory has grown — see
 * `--batch` in plugin-build.mjs). Its inputs are the engine, the WASI features, the world and
 * the WIT files — not the plugin's source, which only goes to wizer afterwards — so every
 * plugin of the same world and features can reuse one result. withSpliceCache() runs a
 * componentize call with spliceBindings replaced by one that reads the result from
 * <dir>/<key>.{wasm,json} or computes and writes it there; the key is the SHA-256 of every
 * argument (the engine and the WIT files by content) and componentize-js's version.
 *
 * The splicer is a module-private file of componentize-js (its package exports only "."), so
 * it is found next to the package's entry. When it is not there, or spliceBindings is never
 * called through it (another componentize-js), the build splices uncached, as before.
 * The summary's `spliceSha256` digests the splice a component was built from, cached or not.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * @typedef {{ wasm: Uint8Array, jsBindings: string, exports: any[], imports: any[] }} Splice
 * @typedef {'cached' | 'built' | 'uncached'} SpliceSource
 */

/** componentize-js's splicer object, the one its componentize() calls; undefined if moved. */
async function findSplicer() {
  try {
    const entry = import.meta.resolve('@bytecodealliance/componentize-js');
    const url = new URL('../lib/spidermonkey-embedding-splicer.js', entry).href;
    const { splicer } = await import(url);
    return typeof splicer?.spliceBindings === 'function' ? splicer : undefined;
  } catch {
    return undefined;
  }
}

/** @param {Splice} splice */
function digest(splice) {
  return createHash('sha256')
    .update(splice.wasm)
    .update('\0')
    .update(splice.jsBindings)
    .update('\0')
    .update(JSON.stringify(splice.exports))
    .update('\0')
    .update(JSON.stringify(splice.imports))
    .digest('hex');
}

/** [relative name, bytes] of every file under a WIT path (a file or a directory), sorted. */
function witFiles(/** @type {string} */ path) {
  if (statSync(path).isFile()) return [['', readFileSync(path)]];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort()
    .map((file) => [relative(path, file), readFileSync(file)]);
}

/** @param {string} version @param {any[]} args the arguments of spliceBindings */
function cacheKey(version, [engine, features, witWorld, witPath, worldName, debug, ...rest]) {
  const hash = createHash('sha256').update(
    JSON.stringify({
      version,
      engine: createHash('sha256').update(engine).digest('hex'),
      features,
      witWorld: witWorld ?? null,
      worldName: worldName ?? null,
      debug,
      rest,
    }),
  );
  for (const [name, bytes] of witPath ? witFiles(witPath) : []) {
    hash.update(`\0${name}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/**
 * The stored splice, if both files are there and agree with the digest.
 * @returns {{ splice: Splice, sha256: string } | undefined}
 */
function readSplice(/** @type {string} */ dir, /** @type {string} */ key) {
  try {
    const meta = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8'));
    const splice = { ...meta.splice, wasm: readFileSync(join(dir, `${key}.wasm`)) };
    return digest(splice) === meta.sha256 ? { splice, sha256: meta.sha256 } : undefined;
  } catch {
    return undefined;
  }
}

/** Temp file + rename, the wasm first: a reader that finds the JSON finds its wasm. */
/** @param {string} dir @param {string} key @param {Splice} splice @param {string} sha256 */
function writeSplice(dir, key, splice, sha256) {
  mkdirSync(dir, { recursive: true });
  /** @param {string} name @param {string | Uint8Array} data */
  const put = (name, data) => {
    const partial = join(dir, `${name}.${process.pid}.tmp`);
    writeFileSync(partial, data);
    renameSync(partial, join(dir, name));
  };
  put(`${key}.wasm`, splice.wasm);
  const { jsBindings, exports, imports } = splice;
  put(`${key}.json`, JSON.stringify({ sha256, splice: { jsBindings, exports, imports } }));
}

/**
 * Runs `componentizeCall` with the splice read from / written to `dir` (none: only digested).
 * @template T
 * @param {string | undefined} dir
 * @param {string} version componentize-js's version, part of the key
 * @param {() => Promise<T>} componentizeCall
 * @returns {Promise<{ value: T, splice: SpliceSource, spliceSha256: string | null }>}
 */
export async function withSpliceCache(dir, version, componentizeCall) {
  const splicer = await findSplicer();
  if (!splicer) return { value: await componentizeCall(), splice: 'uncached', spliceSha256: null };
  const original = splicer.spliceBindings;
  /** @type {SpliceSource} */
  let source = 'uncached';
  /** @type {string | null} */
  let spliceSha256 = null;
  // spliceBindings is synchronous (componentize does not await it), so is this.
  splicer.spliceBindings = (/** @type {any[]} */ ...args) => {
    let key;
    try {
      key = dir ? cacheKey(version, args) : undefined;
    } catch {
      key = undefined; // arguments of another shape: splice uncached
    }
    const stored = dir && key ? readSplice(dir, key) : undefined;
    if (stored) {
      source = 'cached';
      spliceSha256 = stored.sha256;
      return stored.splice;
    }
    /** @type {Splice} */
    const splice = original.apply(splicer, args);
    spliceSha256 = digest(splice);
    if (dir && key) {
      writeSplice(dir, key, splice, spliceSha256);
      source = 'built';
    }
    return splice;
  };
  try {
    const value = await componentizeCall();
    return { value, splice: source, spliceSha256 };
  } finally {
    splicer.spliceBindings = original;
  }
}

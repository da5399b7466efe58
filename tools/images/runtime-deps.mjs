#!/usr/bin/env node
/**
 * The node_modules an image needs at run time, and nothing else: the packages the bundles
 * leave external (webpack `externalDependencies: 'all'`), the root `dependencies` a bundle names
 * as a string (pino transports such as 'pino-roll' are loaded by name), the image's `extraRoots`
 * (loaded by a library through a name the bundle never writes: TypeORM's `pg` driver, the
 * Swagger UI's `@fastify/static`), then their dependencies, installed optional dependencies and
 * required peers, resolved the way Node does (nested node_modules first). `exclude` drops
 * packages that a runtime dependency declares but only uses to build (jco's bundlers and
 * compilers: the plugin runner only transpiles components). A dev dependency a bundle names
 * (a from-sources code path) is never a root.
 *
 *   node tools/images/runtime-deps.mjs <image-name> <out-dir>   # copies into <out-dir>/node_modules
 *   node tools/images/runtime-deps.mjs <image-name> --list      # prints the package directories
 *
 * Left out of the copy: source maps, type declarations, TypeScript sources (Node runs none),
 * markdown, a package's top-level test directories (test/, tests/, __tests__/: never loaded, the
 * package's entry point is checked not to live there), and what images.json's `prune` names:
 * per package, a regular expression over its package-relative paths for files a runtime never
 * loads (date-fns: only the functions' CommonJS files, its en-US locale and their helpers are
 * loaded through pino-roll's require; the other 95 locales and the fp variants are ~14 MB).
 */
import { cpSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MODULES = join(ROOT, 'node_modules');
const RECIPE = JSON.parse(readFileSync(join(ROOT, 'tools/images/images.json'), 'utf8'));
const BUILTINS = new Set(builtinModules);
const DROPPED_FILE = /(\.map|\.ts|\.mts|\.cts|\.md|\.markdown)$/i;
const TEST_DIRS = new Set(['test', 'tests', '__tests__']);
const PRUNE = Object.fromEntries(
  Object.entries(RECIPE.prune ?? {}).map(([name, pattern]) => [name, new RegExp(pattern)]),
);

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || BUILTINS.has(packageName(specifier));
}

function jsFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsFiles(path));
    else if (/\.(c|m)?js$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Bare specifiers a file requires or imports, plus root dependencies it names as strings. */
function rootsOf(files, rootDependencies) {
  const roots = new Set();
  const name = String.raw`((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w.@/-]*)?)`;
  const calls = [new RegExp(String.raw`\b(?:require|import)\(\s*["']${name}["']\s*\)`, 'g')];
  // ES module syntax only in ES modules (a CommonJS bundle's strings may read `from '...'`).
  const statements = [
    new RegExp(String.raw`^\s*(?:import|export)\b[^;]*?\bfrom\s*["']${name}["']`, 'gm'),
  ];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of file.endsWith('.mjs') ? [...calls, ...statements] : calls) {
      for (const match of text.matchAll(pattern)) {
        if (!isBuiltin(match[1])) roots.add(packageName(match[1]));
      }
    }
    for (const name of rootDependencies) {
      if (text.includes(`'${name}'`) || text.includes(`"${name}"`)) roots.add(name);
    }
  }
  return roots;
}

/** Node's lookup of `name` from the package directory `fromDir`: nested node_modules first. */
function resolvePackage(name, fromDir) {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === ROOT || !dir.startsWith(ROOT)) return undefined;
    dir = dirname(dir);
  }
}

export function runtimePackages(imageName) {
  const image = RECIPE.images.find((i) => i.name === imageName);
  if (!image) throw new Error(`unknown image ${imageName}`);
  const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const rootDependencies = Object.keys(rootPkg.dependencies ?? {});
  const files = [
    ...jsFiles(join(ROOT, image.dist)),
    ...(image.extraSources ?? []).flatMap((dir) => jsFiles(join(ROOT, dir))),
  ];
  const exclude = new Set(image.exclude ?? []);
  // A dev dependency named in a bundle belongs to a from-sources path (e.g. the worker's parser
  // thread under @swc-node/register in tests): never shipped.
  const devDependencies = new Set(Object.keys(rootPkg.devDependencies ?? {}));
  const scanned = [...rootsOf(files, rootDependencies)].filter((n) => !devDependencies.has(n));
  const wanted = [...scanned, ...(image.extraRoots ?? [])];
  const found = new Set();
  const missing = [];
  const queue = wanted.map((name) => ({ name, from: ROOT, optional: false }));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift();
    // Type declarations (protobufjs, class-validator declare @types/* as dependencies) never run.
    if (exclude.has(name) || name.startsWith('@types/')) continue;
    const dir = resolvePackage(name, from);
    if (!dir) {
      if (!optional) missing.push(name);
      continue;
    }
    if (found.has(dir)) continue;
    found.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const optionalPeers = pkg.peerDependenciesMeta ?? {};
    for (const dep of Object.keys(pkg.dependencies ?? {})) {
      queue.push({ name: dep, from: dir, optional: false });
    }
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
      queue.push({ name: dep, from: dir, optional: true });
    }
    for (const dep of Object.keys(pkg.peerDependencies ?? {})) {
      if (!optionalPeers[dep]?.optional) queue.push({ name: dep, from: dir, optional: true });
    }
  }
  if (missing.length > 0) {
    throw new Error(`${imageName}: not installed: ${[...new Set(missing)].join(', ')}`);
  }
  return [...found].sort();
}

/** Whether a package-relative path is left out of the copy (a directory's whole subtree). */
function dropped(pkgName, main, rel, isFile) {
  const parts = rel.split(sep);
  // A package's own nested node_modules are copied as packages of their own (if needed).
  if (parts.includes('node_modules')) return true;
  if (isFile && DROPPED_FILE.test(rel)) return true;
  if (parts.length === 1 && !isFile && TEST_DIRS.has(parts[0]) && main !== parts[0]) return true;
  return PRUNE[pkgName]?.test(parts.join('/')) ?? false;
}

function copyPackages(dirs, outDir) {
  for (const dir of dirs) {
    const target = join(outDir, relative(ROOT, dir));
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const main = (pkg.main ?? '').replace(/^\.\//, '').split('/')[0];
    cpSync(dir, target, {
      recursive: true,
      filter: (src) =>
        src === dir || !dropped(pkg.name, main, relative(dir, src), statSync(src).isFile()),
    });
  }
}

function main([imageName, out]) {
  if (!imageName || !out) {
    process.stderr.write('usage: runtime-deps.mjs <image-name> <out-dir>|--list\n');
    process.exit(2);
  }
  const dirs = runtimePackages(imageName);
  if (out === '--list') {
    process.stdout.write(`${dirs.map((d) => relative(ROOT, d)).join('\n')}\n`);
    return;
  }
  if (!dirs.every((d) => d.startsWith(MODULES + sep)))
    throw new Error('package outside node_modules');
  copyPackages(dirs, out);
  process.stdout.write(`${imageName}: ${dirs.length} packages copied\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `runtime-deps: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}

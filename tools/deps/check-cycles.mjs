#!/usr/bin/env node
/**
 * Import cycles and layers of one Nx project, found by dependency-cruiser with
 * .dependency-cruiser.cjs:
 *
 *   node tools/deps/check-cycles.mjs <project-root> [--base-dir <dir>]
 *   node tools/deps/check-cycles.mjs --cases < cases.json
 *
 * 1. The module-scope rules on the project's own files: `no-circular`, and the layers of a
 *    service's src/ (`kernel-imports-no-module`, `module-imports-no-root`, ...: the kernel in
 *    src/app imports no module, no module imports a composition root).
 * 2. The folder-scope rules (`no-feature-cycle`) on the feature graph. dependency-cruiser
 *    collapses every feature folder (the archi `collapsePattern`) into one node; that graph is
 *    written back as one stub module per node — a feature as `<feature>/index.cjs`, any other
 *    file in a folder of its own — and cruised again. On the real tree a folder rule would see
 *    `users/dto` as a folder apart from `users`, and miss `auth -> users/dto` plus `users -> auth`.
 *
 * Exits non-zero when a rule is broken. `--base-dir` cruises another tree laid out like the
 * workspace (the planted-cycle tests use it). `--cases` runs several checks in one process (the
 * tests: a process's start, loading dependency-cruiser and TypeScript, costs more than cruising a
 * planted tree): it reads `[{ "project", "baseDir"? }]` on stdin and prints
 * `[{ "code", "output" }]`, for each case the exit code and what a run of its own would print.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function parseArgs(argv) {
  const args = [...argv];
  let baseDir = WORKSPACE;
  const flag = args.indexOf('--base-dir');
  if (flag >= 0) {
    baseDir = resolve(args[flag + 1] ?? '');
    args.splice(flag, 2);
  }
  if (args.length !== 1) {
    throw new Error('usage: check-cycles.mjs <project-root> [--base-dir <dir>]');
  }
  return { project: args[0].replace(/\/+$/, ''), baseDir };
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function rulesOfScope(ruleSet, scope) {
  return {
    forbidden: (ruleSet.forbidden ?? []).filter((rule) => (rule.scope ?? 'module') === scope),
  };
}

/** Where the stub of a node of the collapsed graph goes. */
function stubPath(node, featurePattern) {
  return featurePattern.test(node) && !posix.extname(node)
    ? `${node}/index.cjs`
    : `${node}/stub.cjs`;
}

/** The collapsed graph as stub modules: each requires the stubs of the nodes it imports. */
function writeFeatureGraph(modules, featurePattern, dir) {
  const known = new Set(modules.map((module) => module.source));
  for (const module of modules) {
    const from = stubPath(module.source, featurePattern);
    const requires = module.dependencies
      .map((dependency) => dependency.resolved)
      .filter((target) => known.has(target) && target !== module.source)
      .map((target) => {
        const relative = posix.relative(posix.dirname(from), stubPath(target, featurePattern));
        return `require('${relative.startsWith('.') ? relative : `./${relative}`}');\n`;
      });
    mkdirSync(join(dir, posix.dirname(from)), { recursive: true });
    writeFileSync(join(dir, from), requires.join(''));
  }
}

/** One project's check: `{ code, output }`, the exit code and what the run prints. */
async function check({ project, baseDir }) {
  const config = await extractDepcruiseOptions(join(WORKSPACE, '.dependency-cruiser.cjs'));
  const { ruleSet, validate: _validate, reporterOptions, ...options } = config;
  const tsConfigFile = join(WORKSPACE, config.tsConfig.fileName);
  const base = {
    ...options,
    tsConfig: { fileName: tsConfigFile },
    baseDir,
    includeOnly: `^${escapeRegExp(project)}/`,
  };
  const resolveOptions = { tsConfig: tsConfigFile };
  const transpileOptions = { tsConfig: extractTSConfig(tsConfigFile) };

  const files = await cruise(
    [project],
    { ...base, validate: true, ruleSet: rulesOfScope(ruleSet, 'module'), outputType: 'err' },
    resolveOptions,
    transpileOptions,
  );

  const collapsePattern = reporterOptions.archi.collapsePattern;
  const collapsed = await cruise(
    [project],
    { ...base, outputType: 'json', collapse: collapsePattern },
    resolveOptions,
    transpileOptions,
  );
  const stubs = mkdtempSync(join(tmpdir(), 'feature-graph-'));
  let features;
  try {
    writeFeatureGraph(
      JSON.parse(collapsed.output).modules,
      new RegExp(`${collapsePattern}$`),
      stubs,
    );
    features = await cruise(
      ['.'],
      {
        baseDir: stubs,
        validate: true,
        ruleSet: rulesOfScope(ruleSet, 'folder'),
        outputType: 'err',
      },
      {},
      {},
    );
  } finally {
    rmSync(stubs, { recursive: true, force: true });
  }

  let output = '';
  if (files.exitCode > 0) {
    output += `${project}: cycles or imports up a layer between files\n${files.output}`;
  }
  if (features.exitCode > 0) {
    output +=
      `${project}: cycles of feature folders (each apps/*/src/modules/<feature> counted as ` +
      `one node)\n${features.output}`;
  }
  const broken = files.exitCode + features.exitCode;
  if (broken === 0) output += `${project}: no import cycles, no import up a layer\n`;
  return { code: broken > 0 ? 1 : 0, output };
}

/** What a check that threw prints (on stderr), exit code 2. */
const failure = (error) =>
  `check-cycles: ${error instanceof Error ? error.message : String(error)}\n`;

if (process.argv[2] === '--cases') {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const results = [];
  for (const { project, baseDir } of JSON.parse(text)) {
    try {
      results.push(await check(parseArgs([project, ...(baseDir ? ['--base-dir', baseDir] : [])])));
    } catch (error) {
      results.push({ code: 2, output: failure(error) });
    }
  }
  process.stdout.write(JSON.stringify(results));
} else {
  try {
    const { code, output } = await check(parseArgs(process.argv.slice(2)));
    process.stdout.write(output);
    process.exitCode = code;
  } catch (error) {
    process.stderr.write(failure(error));
    process.exitCode = 2;
  }
}

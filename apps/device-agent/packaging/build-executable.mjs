#!/usr/bin/env node
// The device agent as one self-contained Linux executable: a Node.js single executable
// application (SEA). `npx nx run device-agent:package` runs this; so can a clone directly:
//
//   node apps/device-agent/packaging/build-executable.mjs [--out-dir DIR] [--node BINARY] [--no-strip]
//
// Steps (docs/agent.md "Packaging"):
//   1. webpack (webpack.sea.config.js): sea-main.js + the agent's sources -> DIR/bundle/certsvc-agent.js,
//      one CommonJS file requiring only node: built-ins (checked here: a SEA cannot load anything else);
//   2. DIR/sea/sea-config.json, then `<node> --experimental-sea-config` -> DIR/sea/sea-prep.blob
//      (made by the same binary that receives it: a blob only runs in the Node.js version that made it);
//   3. a copy of that node binary, its symbol tables stripped (`strip`, when installed; the
//      machine's binary carries ~10 MB of debug data), the blob injected with postject as the
//      NODE_SEA_BLOB section (the fuse NODE_SEA_FUSE_... flips to say it is there);
//   4. chmod 0755, renamed into place as DIR/certsvc-agent, and run once with --version.
// DIR defaults to dist/device-agent. The binary defaults to the node running this script.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function fail(message) {
  process.stderr.write(`build-executable: ${message}\n`);
  process.exit(1);
}

function options(argv) {
  const opts = { outDir: join(root, 'dist/device-agent'), node: process.execPath, strip: true };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--out-dir' && argv[i + 1]) opts.outDir = resolve(argv[(i += 1)]);
    else if (arg === '--node' && argv[i + 1]) opts.node = resolve(argv[(i += 1)]);
    else if (arg === '--no-strip') opts.strip = false;
    else fail(`unknown argument ${arg} (--out-dir DIR, --node BINARY, --no-strip)`);
  }
  return opts;
}

function bundle(outDir) {
  const webpack = require('webpack');
  const config = { ...require('./webpack.sea.config.js') };
  config.output = { ...config.output, path: join(outDir, 'bundle') };
  return new Promise((done) => {
    webpack(config, (error, stats) => {
      if (error) fail(`webpack: ${error.message}`);
      if (stats.hasErrors()) fail(`webpack:\n${stats.toString({ all: false, errors: true })}`);
      const file = join(outDir, 'bundle', 'certsvc-agent.js');
      const source = readFileSync(file, 'utf8');
      const foreign = [...source.matchAll(/require\("([^"]+)"\)/g)]
        .map((m) => m[1])
        .filter((name) => !name.startsWith('node:'));
      if (foreign.length > 0)
        fail(`the bundle requires ${foreign.join(', ')}: a SEA loads only node: built-ins`);
      done(file);
    });
  });
}

function seaBlob(outDir, node, script) {
  const dir = join(outDir, 'sea');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'sea-config.json');
  const blob = join(dir, 'sea-prep.blob');
  writeFileSync(
    config,
    `${JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }, null, 2)}\n`,
  );
  const made = spawnSync(node, ['--experimental-sea-config', config], { encoding: 'utf8' });
  if (made.status !== 0) fail(`${node} --experimental-sea-config: ${made.stderr || made.error}`);
  return blob;
}

/**
 * postject's command line in a child process: its ELF library prints `warning: Can't find string
 * offset for section name '.note...'` for Node's note sections, harmless and filtered out here.
 */
function injectBlob(executable, blob) {
  const cli = join(dirname(require.resolve('postject/package.json')), 'dist', 'cli.js');
  const run = spawnSync(
    process.execPath,
    [cli, executable, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SENTINEL_FUSE],
    { encoding: 'utf8' },
  );
  const noise = /^warning: Can't find string offset for section name/;
  const warnings = run.stderr.split('\n').filter((line) => line.trim() && !noise.test(line));
  if (run.status !== 0) fail(`postject: ${[run.stdout, ...warnings].join('\n') || run.error}`);
  for (const line of warnings) process.stderr.write(`postject: ${line}\n`);
}

function hasStrip() {
  return spawnSync('strip', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function main() {
  const opts = options(process.argv.slice(2));
  const started = Date.now();
  const nodeVersion = execFileSync(opts.node, ['--version'], { encoding: 'utf8' }).trim();
  const major = Number(/^v(\d+)/.exec(nodeVersion)?.[1]);
  if (!(major >= 20))
    fail(`${opts.node} is Node.js ${nodeVersion}; the agent's executable needs 20 or later`);
  if (!readFileSync(opts.node).includes(SENTINEL_FUSE))
    fail(`${opts.node} has no SEA fuse (a Node.js built without single executable support)`);
  mkdirSync(opts.outDir, { recursive: true });

  const script = await bundle(opts.outDir);
  const blob = seaBlob(opts.outDir, opts.node, script);

  const target = join(opts.outDir, 'certsvc-agent');
  const work = `${target}.tmp-${process.pid}`;
  copyFileSync(opts.node, work);
  chmodSync(work, 0o755);
  try {
    if (opts.strip && hasStrip()) execFileSync('strip', ['--strip-all', work]);
    injectBlob(work, blob);
    chmodSync(work, 0o755);
    const version = execFileSync(work, ['--version'], { encoding: 'utf8', env: {} }).trim();
    if (!version.startsWith('certsvc-agent '))
      fail(`the executable answered --version with ${version}`);
    renameSync(work, target);
    const mb = (statSync(target).size / 2 ** 20).toFixed(1);
    process.stdout.write(
      `${target}: ${version}, ${mb} MiB, built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  } finally {
    rmSync(work, { force: true });
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));

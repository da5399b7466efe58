#!/usr/bin/env node
// The local plugin catalog of `npm run up` (docs/plugins/catalog.md, "A local catalog"):
// builds every plugin under tools/catalog/plugins/ — WebAssembly ones with the SDK's build
// command (component cache: $PLUGIN_COMPONENT_CACHE, else <state>/plugin-components), native
// ones ("runtime": "native" in manifest.json: the notification channels) with
// build-native.mjs —, signs them and the catalog
// with a local publisher key (<state>/catalog-publisher.pem, made once, 0600), and writes the
// catalog directory with the publisher's public key (publisher.pub.pem) beside catalog.json.
//
//   node tools/catalog/local-catalog.mjs --state <dir> --out <catalog-dir>
//
// The last stdout line is a JSON summary (`public_key_file` names the public key).
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalog } from './build-catalog.mjs';
import { buildNative } from './build-native.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function arg(name) {
  const i = process.argv.indexOf(name);
  const value = i > 0 ? process.argv[i + 1] : undefined;
  if (!value) {
    process.stderr.write(`local-catalog: ${name} <dir> is required\n`);
    process.exit(2);
  }
  return resolve(value);
}

const state = arg('--state');
const out = arg('--out');
const keyFile = join(state, 'catalog-publisher.pem');
if (!existsSync(keyFile)) {
  const { privateKey } = generateKeyPairSync('ed25519');
  mkdirSync(state, { recursive: true });
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
}
const privateKeyPem = readFileSync(keyFile, 'utf8');
const pluginsRoot = join(ROOT, 'tools/catalog/plugins');
const names = readdirSync(pluginsRoot).filter((n) =>
  existsSync(join(pluginsRoot, n, 'manifest.json')),
);
const dirs = [];
for (const name of names.sort()) {
  const buildDir = join(state, 'plugin-builds', name);
  mkdirSync(buildDir, { recursive: true });
  const template = JSON.parse(readFileSync(join(pluginsRoot, name, 'manifest.json'), 'utf8'));
  if (template.runtime === 'native') {
    buildNative({ pluginDir: join(pluginsRoot, name), outDir: buildDir, privateKeyPem });
    dirs.push(buildDir);
    continue;
  }
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'libs/plugin-sdk/bin/plugin-build.mjs'),
      join(pluginsRoot, name),
      '--out',
      buildDir,
      '--key',
      keyFile,
      '--cache',
      process.env.PLUGIN_COMPONENT_CACHE ?? join(state, 'plugin-components'),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  dirs.push(buildDir);
}
const summary = buildCatalog({ out, key: privateKeyPem, pluginDirs: dirs, name: 'Local catalog' });
const publicKeyFile = join(out, 'publisher.pub.pem');
writeFileSync(
  publicKeyFile,
  createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString(),
);
process.stdout.write(`${JSON.stringify({ ...summary, public_key_file: publicKeyFile })}\n`);

#!/usr/bin/env node
// Builds a native (tier 2) notification channel of the catalog into one signed artifact
// (docs/plugins/catalog-plugins.md, "Notification channels"; docs/plugins/native.md).
//
//   node tools/catalog/build-native.mjs <plugin-dir> --out <dir> [--key <ed25519-private.pem>]
//
// <plugin-dir> holds `manifest.json` ("runtime": "native", every field except
// `artifact_sha256` and `wit_version`) and `index.js`. The artifact <out>/channel.js is:
// `#!/usr/bin/env node`, the constants KIT_PROTOS (channel.proto and health.proto of
// libs/plugin-protocol, the magic cookie) and KIT_MANIFEST (id, version, allowed_hosts, the
// names of the address settings: url-typed or named *_url, as a secret webhook_url is a string), tools/catalog/native/channel-kit.js, then index.js. Its only
// outside requirements are @grpc/grpc-js and @grpc/proto-loader (the runner's
// PLUGIN_NATIVE_NODE_PATH). Writes <out>/manifest.json with the artifact's sha256 and, with
// --key, <out>/manifest.sig. The output depends only on the inputs (no time, no path), so a
// rebuild gives the same bytes and the same digest. Last stdout line: a JSON summary.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KIT = join(ROOT, 'tools/catalog/native/channel-kit.js');
const PROTO_DIR = join(ROOT, 'libs/plugin-protocol/src/proto');
const HANDSHAKE = join(ROOT, 'libs/plugin-protocol/src/native-handshake.ts');
const WIT = join(ROOT, 'libs/plugin-sdk/wit/plugin.wit');

class NativeBuildError extends Error {}

function fail(message) {
  throw new NativeBuildError(message);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return fail(`cannot read ${path}: ${error.message}`);
  }
}

function magicCookie() {
  const text = readFileSync(HANDSHAKE, 'utf8');
  const value = /NATIVE_MAGIC_COOKIE_VALUE\s*=\s*'([0-9a-f]+)'/.exec(text)?.[1];
  return value ?? fail(`${HANDSHAKE} names no NATIVE_MAGIC_COOKIE_VALUE`);
}

function witVersion() {
  const version = /^package findsvc:plugin@([0-9.]+);/m.exec(readFileSync(WIT, 'utf8'))?.[1];
  return version ?? fail(`${WIT} names no findsvc:plugin version`);
}

/** The artifact bytes of the channel in `pluginDir` (manifest template already read). */
export function nativeProgram(pluginDir, template) {
  const protos = {
    cookie: magicCookie(),
    files: {
      'channel.proto': readFileSync(join(PROTO_DIR, 'channel.proto'), 'utf8'),
      'health.proto': readFileSync(join(PROTO_DIR, 'health.proto'), 'utf8'),
    },
  };
  const manifest = {
    id: template.id,
    version: template.version,
    allowed_hosts: template.allowed_hosts ?? [],
    // url-typed settings, and secret addresses (a secret setting is typed string): *_url names.
    url_settings: (template.settings ?? [])
      .filter((s) => s.type === 'url' || /_url$/.test(s.name))
      .map((s) => s.name),
  };
  const index = readFileSync(join(pluginDir, 'index.js'), 'utf8');
  return Buffer.from(
    [
      '#!/usr/bin/env node',
      "'use strict';",
      `const KIT_PROTOS = ${JSON.stringify(protos)};`,
      `const KIT_MANIFEST = ${JSON.stringify(manifest)};`,
      readFileSync(KIT, 'utf8'),
      `// ---- ${template.id} ${template.version} ----`,
      index,
    ].join('\n'),
  );
}

/** Builds <outDir>/channel.js, manifest.json and (with a key) manifest.sig. */
export function buildNative({ pluginDir, outDir, privateKeyPem = null }) {
  const dir = resolve(pluginDir);
  const template = readJson(join(dir, 'manifest.json'));
  if (typeof template !== 'object' || template === null || Array.isArray(template)) {
    fail('manifest.json must be a JSON object');
  }
  if ('artifact_sha256' in template) fail('manifest.json must not carry artifact_sha256');
  if (template.runtime !== 'native') fail(`${dir}: manifest.json does not say "runtime": "native"`);
  const caps = template.capabilities;
  if (!Array.isArray(caps) || caps.length !== 1 || caps[0] !== 'notification_channel') {
    fail(`${dir}: a native catalog plugin declares exactly ["notification_channel"]`);
  }
  if (!existsSync(join(dir, 'index.js'))) fail(`${dir}: no index.js`);
  const key = privateKeyPem ? createPrivateKey(privateKeyPem) : null;
  if (key && key.asymmetricKeyType !== 'ed25519') fail('--key must be an Ed25519 private key');
  const program = nativeProgram(dir, template);
  const sha256 = createHash('sha256').update(program).digest('hex');
  const { id, version, capabilities, runtime, ...rest } = template;
  const manifest = { id, version, capabilities, runtime, wit_version: witVersion(), ...rest };
  const manifestBytes = Buffer.from(
    `${JSON.stringify({ ...manifest, artifact_sha256: sha256 }, null, 2)}\n`,
  );
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'channel.js'), program, { mode: 0o755 });
  writeFileSync(join(out, 'manifest.json'), manifestBytes);
  const sigPath = join(out, 'manifest.sig');
  if (key) writeFileSync(sigPath, `${sign(null, manifestBytes, key).toString('base64')}\n`);
  else rmSync(sigPath, { force: true });
  return {
    artifact: join(out, 'channel.js'),
    manifest: join(out, 'manifest.json'),
    signature: key ? sigPath : null,
    sha256,
    bytes: program.length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const args = process.argv.slice(2);
    const option = (name) => {
      const i = args.indexOf(name);
      if (i === -1) return undefined;
      const value = args[i + 1] ?? fail(`${name} needs a value`);
      args.splice(i, 2);
      return value;
    };
    const outDir = option('--out') ?? fail('--out <dir> is required');
    const keyFile = option('--key');
    if (args.length !== 1) fail('give exactly one plugin directory');
    const summary = buildNative({
      pluginDir: args[0],
      outDir,
      privateKeyPem: keyFile ? readFileSync(keyFile, 'utf8') : null,
    });
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } catch (error) {
    if (!(error instanceof NativeBuildError)) throw error;
    process.stderr.write(`build-native: ${error.message}\n`);
    process.exit(1);
  }
}

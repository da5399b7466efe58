#!/usr/bin/env node
// Builds and signs a plugin catalog directory from plugin build outputs (docs/plugins/catalog.md).
//
//   node tools/catalog/build-catalog.mjs --out <dir> [--key <ed25519-private.pem> | --unsigned]
//        [--revoke <sha256>]... [--base-url <url>] [--name <text>] <plugin-build-dir>...
//
// Each <plugin-build-dir> is the output of `npm run plugin:build` (or a native plugin laid out
// alike): `manifest.json` (the exact bytes are kept), the artifact (`component.wasm`, or the
// single other file for a native plugin) and, optionally, `manifest.sig`. Several directories
// may hold versions of one plugin: they become its `available_versions`. With --key a missing
// signature is made with the key (into the catalog; the input is not written) and a present
// manifest.sig must verify with it; the catalog
// document itself is signed with the same key (envelope `findsvc-signed-catalog/1`).
// Output: <out>/catalog.json and <out>/artifacts/<id>-<version>.<ext>. The last stdout line is
// a JSON summary. Exit 1 with `build-catalog:` on stderr for any refusal.
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CATALOG_FORMAT = 'findsvc-plugin-catalog/1';
export const SIGNED_CATALOG_FORMAT = 'findsvc-signed-catalog/1';

class CatalogBuildError extends Error {}

function fail(message) {
  throw new CatalogBuildError(message);
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function semverKey(version) {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(version);
  if (!m) fail(`version "${version}" is not MAJOR.MINOR.PATCH[-pre]`);
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4]];
}

function compareSemver(a, b) {
  const x = semverKey(a);
  const y = semverKey(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  if (x[3] === y[3]) return 0;
  if (x[3] === undefined) return 1;
  if (y[3] === undefined) return -1;
  return x[3] < y[3] ? -1 : 1;
}

function readPluginDir(dir) {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) fail(`${dir}: no manifest.json`);
  const manifestBytes = readFileSync(manifestPath);
  let manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8'));
  } catch (error) {
    fail(`${manifestPath}: not JSON (${error.message})`);
  }
  for (const field of ['id', 'version', 'capabilities', 'min_service_version', 'artifact_sha256']) {
    if (manifest[field] === undefined) fail(`${manifestPath}: no "${field}"`);
  }
  const runtime = manifest.runtime ?? 'wasm';
  let artifactPath = join(dir, 'component.wasm');
  if (!existsSync(artifactPath)) {
    const others = readdirSync(dir).filter(
      (f) => !['manifest.json', 'manifest.sig'].includes(f) && !f.startsWith('.'),
    );
    if (others.length !== 1)
      fail(`${dir}: no component.wasm and not exactly one other artifact file`);
    artifactPath = join(dir, others[0]);
  }
  const artifact = readFileSync(artifactPath);
  const digest = sha256(artifact);
  if (digest !== manifest.artifact_sha256) {
    fail(
      `${dir}: the artifact's sha256 ${digest} is not the manifest's ${manifest.artifact_sha256}`,
    );
  }
  const sigPath = join(dir, 'manifest.sig');
  const signature = existsSync(sigPath) ? readFileSync(sigPath, 'utf8').trim() : null;
  return { dir, manifest, manifestBytes, artifactPath, digest, signature, runtime };
}

/**
 * Builds the catalog. `key`: PEM of the Ed25519 private key, or null for an unsigned catalog.
 * Returns the summary printed by the command.
 */
export function buildCatalog({ out, key = null, pluginDirs, revoke = [], baseUrl, name }) {
  if (pluginDirs.length === 0) fail('no plugin build directory given');
  const privateKey = key ? createPrivateKey(key) : null;
  if (privateKey && privateKey.asymmetricKeyType !== 'ed25519') fail('--key is not an Ed25519 key');
  const publicKey = privateKey ? createPublicKey(privateKey) : null;
  for (const digest of revoke) {
    if (!/^[0-9a-f]{64}$/.test(digest)) fail(`--revoke ${digest}: not a lower-case sha256`);
  }
  mkdirSync(join(out, 'artifacts'), { recursive: true });
  const byId = new Map();
  for (const dir of pluginDirs) {
    const plugin = readPluginDir(resolve(dir));
    let signature = plugin.signature;
    if (privateKey) {
      if (signature === null) {
        signature = sign(null, plugin.manifestBytes, privateKey).toString('base64');
      } else if (!verify(null, plugin.manifestBytes, publicKey, Buffer.from(signature, 'base64'))) {
        fail(`${plugin.dir}: manifest.sig does not verify with --key`);
      }
    } else {
      signature = null;
    }
    const { id, version } = plugin.manifest;
    semverKey(version);
    const ext = extname(plugin.artifactPath) || '.bin';
    const artifactName = `${id}-${version}${ext}`;
    copyFileSync(plugin.artifactPath, join(out, 'artifacts', artifactName));
    const entry = {
      version,
      min_service_version: plugin.manifest.min_service_version,
      runtime: plugin.runtime,
      capabilities: plugin.manifest.capabilities,
      artifact_url: baseUrl
        ? new URL(`artifacts/${artifactName}`, baseUrl).toString()
        : `artifacts/${artifactName}`,
      artifact_sha256: plugin.digest,
      manifest: plugin.manifestBytes.toString('base64'),
      signature,
    };
    const versions = byId.get(id) ?? { id, description: plugin.manifest.description, versions: [] };
    if (versions.versions.some((v) => v.version === version)) fail(`${id} ${version} given twice`);
    versions.versions.push(entry);
    if (plugin.manifest.description) versions.description = plugin.manifest.description;
    byId.set(id, versions);
  }
  const plugins = [...byId.values()]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((p) => ({
      id: p.id,
      ...(p.description ? { description: p.description } : {}),
      available_versions: p.versions.sort((a, b) => compareSemver(b.version, a.version)),
    }));
  const document = {
    format: CATALOG_FORMAT,
    ...(name ? { name } : {}),
    generated_at: new Date().toISOString(),
    plugins,
    revoked_digests: [...new Set(revoke)],
  };
  const documentBytes = Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
  const served = privateKey
    ? Buffer.from(
        `${JSON.stringify(
          {
            format: SIGNED_CATALOG_FORMAT,
            catalog: documentBytes.toString('base64'),
            signature: sign(null, documentBytes, privateKey).toString('base64'),
          },
          null,
          2,
        )}\n`,
      )
    : documentBytes;
  writeFileSync(join(out, 'catalog.json'), served);
  return {
    catalog: join(out, 'catalog.json'),
    signed: privateKey !== null,
    plugins: plugins.map((p) => ({
      id: p.id,
      versions: p.available_versions.map((v) => v.version),
    })),
    revoked: document.revoked_digests.length,
  };
}

function parseArgs(argv) {
  const options = { pluginDirs: [], revoke: [], key: null, unsigned: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${arg} needs a value`);
      return v;
    };
    if (arg === '--out') options.out = value();
    else if (arg === '--key') options.key = readFileSync(value(), 'utf8');
    else if (arg === '--unsigned') options.unsigned = true;
    else if (arg === '--revoke') options.revoke.push(value());
    else if (arg === '--base-url') options.baseUrl = value();
    else if (arg === '--name') options.name = value();
    else if (arg.startsWith('--')) fail(`unknown option ${arg}`);
    else options.pluginDirs.push(arg);
  }
  if (!options.out) fail('--out <dir> is required');
  if (!options.key && !options.unsigned) fail('give --key <ed25519-private.pem> or --unsigned');
  if (options.key && options.unsigned) fail('--key and --unsigned exclude each other');
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const options = parseArgs(process.argv.slice(2));
    const summary = buildCatalog(options);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } catch (error) {
    if (!(error instanceof CatalogBuildError)) throw error;
    process.stderr.write(`build-catalog: ${error.message}\n`);
    process.exit(1);
  }
}

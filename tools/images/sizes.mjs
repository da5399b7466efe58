#!/usr/bin/env node
/**
 * Sizes of the built images, written to <out>/images.json and printed as a table: `pulled` is
 * what a registry stores and a node downloads (compressed layers, config and manifest),
 * `unpacked` the file system it becomes (the layers' uncompressed tar streams).
 *
 *   node tools/images/sizes.mjs <out-dir> <version> <name>...
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';

export function readManifest(layout, tag) {
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'));
  const entry = index.manifests.find(
    (m) => m.annotations?.['org.opencontainers.image.ref.name'] === tag,
  );
  if (!entry) throw new Error(`${layout} has no tag ${tag}`);
  const blob = (digest) => join(layout, 'blobs', ...digest.split(':'));
  const manifest = JSON.parse(readFileSync(blob(entry.digest), 'utf8'));
  const config = JSON.parse(readFileSync(blob(manifest.config.digest), 'utf8'));
  return { entry, manifest, config, blob };
}

function unpackedBytes(file) {
  return new Promise((resolve, reject) => {
    let total = 0;
    createReadStream(file)
      .pipe(createGunzip())
      .on('data', (chunk) => (total += chunk.length))
      .on('end', () => resolve(total))
      .on('error', reject);
  });
}

const mb = (bytes) => (bytes / 1e6).toFixed(1);

async function main([out, version, ...names]) {
  const tag = version.replace(/\+/g, '_');
  const images = [];
  for (const name of names) {
    const { entry, manifest, blob } = readManifest(join(out, name), tag);
    const layers = manifest.layers.map((l) => l.size);
    const pulled = entry.size + manifest.config.size + layers.reduce((a, b) => a + b, 0);
    let unpacked = 0;
    for (const layer of manifest.layers) unpacked += await unpackedBytes(blob(layer.digest));
    images.push({ name, tag, pulled_bytes: pulled, unpacked_bytes: unpacked, layers });
  }
  writeFileSync(join(out, 'images.json'), `${JSON.stringify({ version, tag, images }, null, 2)}\n`);
  process.stdout.write(`images ${version} (tag ${tag}) in ${out}/<name>:\n`);
  process.stdout.write('| image | pulled (MB) | unpacked (MB) |\n|---|---:|---:|\n');
  for (const i of images) {
    process.stdout.write(`| ${i.name} | ${mb(i.pulled_bytes)} | ${mb(i.unpacked_bytes)} |\n`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`sizes: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

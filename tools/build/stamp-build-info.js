#!/usr/bin/env node
// Stamps ONE build identity into every given output directory as build-info.json, so all
// components of a build carry the same `X.Y.BUILD+COMMIT` (X.Y from the root package.json,
// BUILD = UTC YYYYMMDDHHMMSS now, COMMIT = short git hash).
//
//   node tools/build/stamp-build-info.js dist/apps/findings-service dist/apps/plugin-runner ...
//
// The format comes from libs/versioning/src/build-info.ts itself (loaded through
// @swc-node/register), so the stamp and the reader can never disagree.
// BUILD_COMMIT overrides the git hash (image builds without a .git directory).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
process.env.SWC_NODE_PROJECT ??= path.join(root, 'tsconfig.base.json');
require('@swc-node/register');
const versioning = require(path.join(root, 'libs/versioning/src/build-info.ts'));

function main(dirs) {
  if (dirs.length === 0) {
    process.stderr.write('usage: stamp-build-info.js <output-dir>...\n');
    process.exit(2);
  }
  const now = new Date();
  let info = versioning.stampBuildInfo(root, now);
  const commit = process.env.BUILD_COMMIT;
  if (commit) {
    info = { ...info, commit, version: versioning.formatVersion(info.majorMinor, now, commit) };
  }
  if (!versioning.isValidVersion(info.version)) {
    process.stderr.write(`refusing to stamp malformed version ${info.version}\n`);
    process.exit(1);
  }
  const body = `${JSON.stringify(info, null, 2)}\n`;
  for (const dir of dirs) {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      process.stderr.write(`not a directory: ${dir}\n`);
      process.exit(1);
    }
    fs.writeFileSync(path.join(dir, versioning.BUILD_INFO_FILE), body);
  }
  process.stdout.write(`stamped ${info.version} into ${dirs.join(', ')}\n`);
}

main(process.argv.slice(2));

// The waiting lane of a full `npm test` (tools/test.sh): e2e files that spend most of their time
// waiting — a chat API kept down for a minute, a tracker's rate limit, a leader's lease running
// out, a retry's back-off — run in a Jest process of their own, one worker, beside the two
// workers of the main run. In the main run such a file held one of the two workers for its whole
// wait while the core it left idle had nothing to do: in the fresh-clone run at `7fa89214` six
// files waited 211 s of their 268 s, and the Jest phase had the cores 79 % busy.
//
// A file joins the lane with the line `// test-lane: waiting` among the line comments it starts
// with, followed by what it waits for. The main run (TEST_LANE=main, tools/test/bundles.js) leaves
// those files out; the lane runs exactly them (`node tools/test/lanes.js --waiting` lists them).
// A named file (`npm test -- <path>`) runs as it is, lane or not.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
/** The mark of a file of the waiting lane: a line of its own among the file's leading comments. */
const WAITING_MARK = /^\/\/ test-lane: waiting\b/;
/** Where projects live (e2e files are in each project's test/ folder; deploy/test too). */
const PROJECT_KINDS = ['apps', 'libs'];

function e2eFilesUnder(dir) {
  const found = [];
  const walk = (at) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === '__bundles__') continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.e2e-spec.ts')) found.push(full);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return found.sort();
}

/** Whether a test file's source marks it as a file of the waiting lane (its leading comments). */
function marksWaiting(source) {
  for (const line of source.split('\n')) {
    if (WAITING_MARK.test(line)) return true;
    if (!/^\s*(\/\/.*)?$/.test(line)) return false;
  }
  return false;
}

/** The absolute paths of the waiting lane's files under one project root. */
function waitingFilesOf(projectRoot) {
  return e2eFilesUnder(path.join(projectRoot, 'test')).filter((file) =>
    marksWaiting(fs.readFileSync(file, 'utf8')),
  );
}

/** The waiting lane's files of the whole workspace, relative to the repository root. */
function waitingFiles(root = ROOT) {
  const roots = PROJECT_KINDS.flatMap((kind) => {
    const dir = path.join(root, kind);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
  });
  return roots
    .concat(path.join(root, 'deploy'))
    .flatMap((projectRoot) => waitingFilesOf(projectRoot))
    .map((file) => path.relative(root, file));
}

if (require.main === module) {
  if (process.argv[2] !== '--waiting') {
    process.stderr.write('usage: node tools/test/lanes.js --waiting\n');
    process.exit(2);
  }
  for (const file of waitingFiles()) process.stdout.write(`${file}\n`);
}

module.exports = { marksWaiting, waitingFiles, waitingFilesOf, WAITING_MARK };

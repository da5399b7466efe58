// Jest test sequencer: longest files first, so the two workers of a 2-core machine end together
// instead of one of them running a 2-minute file alone at the end of the run.
//
// Jest sorts by the durations it cached on this machine; a fresh clone (CI) has none and Jest
// falls back to file size, which put the 140 s wasm soak (a short file) among the last files.
// tools/test/durations.json keeps the seconds each file took in a full run; it is the fallback
// when Jest's own cache has no time for a file. Refresh it after a full run:
//   TEST_DURATIONS_FILE=tools/test/durations.json npm test
// (tools/test/summary-reporter.js writes it). A file it does not list counts as a short one
// (UNLISTED_MS) and runs among the last, filling the end of the run. A bundle of e2e files
// (tools/test/bundles.js) counts the seconds of the files it runs.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { partsOf, BUNDLE_DIR } = require('./bundles');

const ROOT = path.resolve(__dirname, '../..');
/** The time assumed for a file durations.json does not list. */
const UNLISTED_MS = 2_000;

function committedDurations() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'durations.json'), 'utf8'));
  } catch {
    return {};
  }
}

class LongestFirstSequencer extends Sequencer {
  constructor(...args) {
    super(...args);
    this.committed = committedDurations();
  }

  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    if (test.path.includes(`${path.sep}${BUNDLE_DIR}${path.sep}`)) {
      return partsOf(test.path).reduce((sum, file) => sum + this.committedMs(file), 0);
    }
    return this.committedMs(path.relative(ROOT, test.path));
  }

  committedMs(file) {
    const seconds = this.committed[file];
    return typeof seconds === 'number' ? seconds * 1000 : UNLISTED_MS;
  }
}

module.exports = LongestFirstSequencer;

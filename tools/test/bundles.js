// E2e files run in bundles in a full `npm test` (TEST_BUNDLES=1, set by tools/test.sh).
//
// Jest gives every test file a fresh module registry: each e2e file loads and evaluates the
// ~3 500 modules of its service again (resolve, compile from the code cache, run every
// decorator), ~2-3 s of CPU before its first test. A bundle is one generated test file that
// requires several e2e files, each inside a `describe` named by its path: their hooks and tests
// keep their own scope (a file's top-level beforeAll/afterAll become its describe's), each still
// boots its own app on its own database, but the modules are loaded once per bundle. Measured on
// the certificate service's 18 role-matrix files, one worker: 60 -> 29 s of CPU, 989 tests
// passed either way (docs/testing.md, "Bundles").
//
// What stays a file of its own: a file that changes what the next one would see through the
// shared module registry or test context — jest.mock and friends, fake timers, process.env,
// process listeners, the working directory (MUST_RUN_ALONE) — and long files
// (over ALONE_OVER_S in tools/test/durations.json: their start-up is a small share of them, and
// the longest-first order balances the workers better with them apart). A file that starts
// with the line `// test-bundle: alone` stays alone too, whatever it does.
//
// A file's `jest.setTimeout` at its top level is its own in a bundle: the bundle reads the
// timeout the file set while it was required, puts the default back for the next file, and
// makes it the running timeout from the file's first hook to its last (jest-circus reads
// `jest.setTimeout` once, when the run starts, so a bundle of files that each set one would
// otherwise run them all with the last file's). Files that set it were alone before: 27 of them,
// each loading the service's modules again (~2-3 s of CPU).
//
// In the main run of a full `npm test` (TEST_LANE=main) the files of the waiting lane
// (tools/test/lanes.js: `// test-lane: waiting`) are left out: their own Jest process runs them.
//
// `npm test -- <path>` never bundles: a named file runs as it is. The generated files live in
// <project>/test/__bundles__/ (ignored by git), are rewritten for every run and removed after it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { waitingFilesOf } = require('./lanes');

const ROOT = path.resolve(__dirname, '../..');
const BUNDLE_DIR = '__bundles__';
/** A file that took longer in the last full run stays alone. */
const ALONE_OVER_S = 25;
/**
 * Seconds of files (durations.json) per bundle; the files of a bundle run one after another.
 * Each bundle loads its service's modules once (~2-3 s of CPU). 45 s and 16 files until a
 * bundle's finished files stopped holding memory (tools/test/leak-audit-environment.js); the
 * certificate service's e2e files, one worker, alternated at load ~5: 45 s / 16 files (10
 * bundles) 240.0 s of CPU, 409 s of wall time; 100 s / 40 files (4 bundles) 221.1 s, 379 s; the
 * same 1 725 tests passed. TEST_BUNDLE_BUDGET_S overrides it (measurements).
 */
const BUNDLE_BUDGET_S = Number(process.env.TEST_BUNDLE_BUDGET_S) || 100;
/** Files per bundle at most (TEST_BUNDLE_MAX_FILES overrides it). */
const BUNDLE_MAX_FILES = Number(process.env.TEST_BUNDLE_MAX_FILES) || 40;
/** The time assumed for a file durations.json does not list. */
const UNLISTED_S = 4;

const MUST_RUN_ALONE = [
  /jest\.(mock|doMock|unstable_mockModule|useFakeTimers|isolateModules|resetModules|retryTimes|replaceProperty)\b/,
  /process\.env(\.[A-Za-z_$][\w$]*|\[[^\]]+\])\s*=[^=]/,
  /delete\s+process\.env/,
  /Object\.assign\(\s*process\.env/,
  /process\.(chdir|on|once|exitCode|umask)\b/,
  /^\/\/ test-bundle: alone$/m,
];

function committedDurations() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'durations.json'), 'utf8'));
  } catch {
    return {};
  }
}

function e2eFiles(dir) {
  const found = [];
  const walk = (at) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      if (entry.name === BUNDLE_DIR || entry.name === 'node_modules') continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.e2e-spec.ts')) found.push(full);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return found.sort();
}

/** Whether `file` may share a bundle (see MUST_RUN_ALONE and ALONE_OVER_S). */
function bundleable(file, durations) {
  const seconds = durations[path.relative(ROOT, file)];
  if (typeof seconds === 'number' && seconds > ALONE_OVER_S) return false;
  const source = fs.readFileSync(file, 'utf8');
  return !MUST_RUN_ALONE.some((pattern) => pattern.test(source));
}

/**
 * Groups the bundleable files of a project's test/ folder, in path order, by budget; the files
 * in `leftOut` (absolute paths) are in no bundle.
 */
function planBundles(projectRoot, durations = committedDurations(), leftOut = []) {
  const bundles = [];
  let current = [];
  let seconds = 0;
  for (const file of e2eFiles(path.join(projectRoot, 'test'))) {
    if (leftOut.includes(file) || !bundleable(file, durations)) continue;
    const took = durations[path.relative(ROOT, file)] ?? UNLISTED_S;
    if (
      current.length > 0 &&
      (seconds + took > BUNDLE_BUDGET_S || current.length >= BUNDLE_MAX_FILES)
    ) {
      bundles.push(current);
      current = [];
      seconds = 0;
    }
    current.push(file);
    seconds += took;
  }
  if (current.length > 0) bundles.push(current);
  // A bundle of one file gains nothing.
  return bundles.filter((files) => files.length > 1);
}

function bundleSource(files) {
  const parts = files.map((file) => `part(${JSON.stringify(path.relative(ROOT, file))});`);
  return `// Generated by tools/test/bundles.js for one \`npm test\` run (not in git): the e2e files below
// in one module registry, each in a describe named by its path. Edit the files, not this.
'use strict';
const root = ${JSON.stringify(ROOT)};
const times = [];
const { cpuSeconds } = require(root + '/tools/test/cpu-time.js');
// What jest.setTimeout sets, and jest-circus's state, whose testTimeout every hook and test
// without a time-out of its own reads when it starts.
const TIMEOUT = Symbol.for('TEST_TIMEOUT_SYMBOL');
function circusState() {
  const symbol = Object.getOwnPropertySymbols(globalThis).find(
    (s) => s.description === 'JEST_STATE_SYMBOL',
  );
  const state = symbol && globalThis[symbol];
  if (!state || typeof state.testTimeout !== 'number') {
    throw new Error('tools/test/bundles.js: jest-circus state not found (a file set jest.setTimeout)');
  }
  return state;
}
function part(file) {
  describe(file, () => {
    let started = 0;
    let cpu = 0;
    let fileTimeout;
    let previousTimeout;
    beforeAll(() => {
      started = Date.now();
      cpu = cpuSeconds();
      if (fileTimeout !== undefined) {
        const state = circusState();
        previousTimeout = state.testTimeout;
        state.testTimeout = fileTimeout;
      }
    });
    const timeoutBefore = globalThis[TIMEOUT];
    require(root + '/' + file);
    if (globalThis[TIMEOUT] !== timeoutBefore) {
      fileTimeout = globalThis[TIMEOUT];
      globalThis[TIMEOUT] = timeoutBefore;
    }
    afterAll(() => {
      if (previousTimeout !== undefined) circusState().testTimeout = previousTimeout;
      times.push([file, (Date.now() - started) / 1000, cpuSeconds() - cpu]);
    });
  });
}
${parts.join('\n')}
afterAll(() => {
  const out = process.env.TEST_PART_TIMES;
  if (out) require('node:fs').appendFileSync(out, times.map((t) => JSON.stringify(t) + '\\n').join(''));
});
`;
}

/** The files a bundle file runs (relative to the repository), read back from its source. */
function partsOf(bundleFile) {
  try {
    const source = fs.readFileSync(bundleFile, 'utf8');
    return [...source.matchAll(/^part\(("[^"]+")\);$/gm)].map((m) => JSON.parse(m[1]));
  } catch {
    return [];
  }
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Writes the bundles of a project (a Jest project config with rootDir) and returns the config
 * that runs them instead of the files they hold.
 */
function bundledProject(config, lane = process.env.TEST_LANE) {
  const dir = path.join(config.rootDir, 'test', BUNDLE_DIR);
  fs.rmSync(dir, { recursive: true, force: true });
  // The main run leaves the waiting lane's files to their own Jest process (tools/test/lanes.js).
  const elsewhere = lane === 'main' ? waitingFilesOf(config.rootDir) : [];
  const bundles = planBundles(config.rootDir, committedDurations(), elsewhere);
  const ignored = [...bundles.flat(), ...elsewhere].map((file) => `^${escapeRegExp(file)}$`);
  if (ignored.length === 0) return config;
  if (bundles.length > 0) fs.mkdirSync(dir, { recursive: true });
  bundles.forEach((files, index) => {
    const name = `bundle-${String(index + 1).padStart(2, '0')}.e2e-bundle.js`;
    fs.writeFileSync(path.join(dir, name), bundleSource(files));
  });
  return {
    ...config,
    testMatch: [...(config.testMatch ?? []), `<rootDir>/test/${BUNDLE_DIR}/*.e2e-bundle.js`],
    testPathIgnorePatterns: [...(config.testPathIgnorePatterns ?? ['/node_modules/']), ...ignored],
  };
}

/** Removes every project's generated bundles (tools/test.sh, after the run). */
function removeBundles(projectRoots) {
  for (const rootDir of projectRoots) {
    fs.rmSync(path.join(rootDir, 'test', BUNDLE_DIR), { recursive: true, force: true });
  }
}

module.exports = { planBundles, bundledProject, removeBundles, partsOf, BUNDLE_DIR };

// Root Jest configuration: one run over every project (unit and e2e), one summary line.
const fs = require('node:fs');
const path = require('node:path');

const projectConfigs = [
  ...['apps', 'libs'].flatMap((kind) =>
    fs
      .readdirSync(path.join(__dirname, kind))
      .map((name) => path.join(__dirname, kind, name, 'jest.config.js'))
      .filter((file) => fs.existsSync(file)),
  ),
  // The Helm chart checks (deploy/test).
  path.join(__dirname, 'deploy/jest.config.js'),
];

module.exports = {
  // A full `npm test` (TEST_BUNDLES=1) runs the e2e files in bundles that load each service's
  // modules once for several files (tools/test/bundles.js); a named file always runs alone.
  projects:
    process.env.TEST_BUNDLES === '1'
      ? projectConfigs.map((file) => require('./tools/test/bundles').bundledProject(require(file)))
      : projectConfigs,
  reporters: ['default', '<rootDir>/tools/test/summary-reporter.js'],
  // Longest files first (tools/test/durations.json when Jest has no times of its own).
  testSequencer: '<rootDir>/tools/test/sequencer.js',
  // Jest reads testTimeout from the global config only: the projects' (jest.preset.js) is ignored.
  testTimeout: require('./jest.preset.js').testTimeout,
  // After the last file, a worker is asked to exit and killed if it has not within this time
  // (tools/test.sh fails such a run). Jest's 500 ms default is too short on a loaded 2-core machine
  // for a worker that is only closing its last connections; a handle that really stays open
  // (a forgotten timer or connection) still outlives 10 s and still fails the run.
  workerGracefulExitTimeout: 10_000,
  // A worker whose heap passed this after a test file is replaced by a fresh one. Every e2e file
  // used to leave ~40 MB behind in its worker (1.5 GB after 35 findings files run in one process;
  // found and fixed in tools/test/leak-audit-environment.js and cached-runtime.js): over the ~200
  // files a worker runs, the heap reached 4.9 GB, GC ran without end and boots passed the 60 s
  // hook time-out. The limit stays as a guard. Measured on 35 findings e2e files, two workers: no limit 142 s
  // (213 s of CPU), 1200 MB 136 s, 700 MB 129 s (191 s), 450 MB 145 s (restarts every ~5
  // files). JEST_WORKER_MEMORY overrides it.
  workerIdleMemoryLimit: process.env.JEST_WORKER_MEMORY || '700MB',
};

// Root Jest configuration: one run over every project (unit and e2e), one summary line.
module.exports = {
  projects: [
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/libs/*/jest.config.js',
    // The Helm chart checks (deploy/test).
    '<rootDir>/deploy/jest.config.js',
  ],
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
  // leaves ~40 MB behind in its worker (1.5 GB after 35 findings files run in one process): over
  // the ~200 files a worker runs, the heap reached 4.9 GB, GC ran without end and boots passed
  // the 60 s hook time-out. Measured on 35 findings e2e files, two workers: no limit 142 s
  // (213 s of CPU), 1200 MB 136 s, 700 MB 129 s (191 s), 450 MB 145 s (restarts every ~5
  // files). JEST_WORKER_MEMORY overrides it.
  workerIdleMemoryLimit: process.env.JEST_WORKER_MEMORY || '700MB',
};

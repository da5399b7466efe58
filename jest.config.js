// Root Jest configuration: one run over every project (unit and e2e), one summary line.
module.exports = {
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/jest.config.js'],
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
};

// Root Jest configuration: one run over every project (unit and e2e), one summary line.
module.exports = {
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/jest.config.js'],
  reporters: ['default', '<rootDir>/tools/test/summary-reporter.js'],
  // Jest reads testTimeout from the global config only: the projects' (jest.preset.js) is ignored.
  testTimeout: require('./jest.preset.js').testTimeout,
};

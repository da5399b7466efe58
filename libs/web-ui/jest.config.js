// Unit tests of the shared web UI library's pure modules (src/core); its components are tested
// in a real browser through the apps that use them (apps/*-web/e2e).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'web-ui',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};

// Unit tests of the UI's pure modules (view state, action-log changes); the screens are tested
// in a real browser by Playwright (e2e/, run by tools/test.sh after Jest).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'findings-web',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};

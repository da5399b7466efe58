// Unit tests of the UI's pure modules (the role rules of the navigation and the requests
// queue); the screens are tested in a real browser by Playwright (e2e/, run by tools/test.sh
// after Jest).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'certificate-web',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};

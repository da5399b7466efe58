// The image test (images.e2e-spec.ts): not part of `npm test` (it needs `npm run images` first
// and root); run by `npm run images:test` (tools/images/test.sh).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'images',
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.e2e-spec.ts'],
};

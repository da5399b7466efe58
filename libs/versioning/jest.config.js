module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'versioning',
  rootDir: __dirname,
};

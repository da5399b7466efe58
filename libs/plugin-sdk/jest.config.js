module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'plugin-sdk',
  rootDir: __dirname,
};

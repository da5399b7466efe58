module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'plugin-runner',
  rootDir: __dirname,
};

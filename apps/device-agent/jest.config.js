module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'device-agent',
  rootDir: __dirname,
};

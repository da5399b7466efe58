module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'findings-service',
  rootDir: __dirname,
};

module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'certificate-service',
  rootDir: __dirname,
};

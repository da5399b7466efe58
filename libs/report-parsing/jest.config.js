module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'report-parsing',
  rootDir: __dirname,
};

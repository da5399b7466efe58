module.exports = { ...require('../../jest.preset.js'), displayName: 'pki', rootDir: __dirname };

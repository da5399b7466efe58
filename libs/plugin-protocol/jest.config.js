module.exports = { ...require('../../jest.preset.js'), displayName: 'plugin-protocol', rootDir: __dirname };

const { appWebpackConfig, protoAssets } = require('../../tools/build/webpack-app');

module.exports = appWebpackConfig(__dirname, { name: 'plugin-runner', assets: protoAssets });

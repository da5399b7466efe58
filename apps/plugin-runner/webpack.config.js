const { appWebpackConfig } = require('../../tools/build/webpack-app');

module.exports = appWebpackConfig(__dirname, { name: 'plugin-runner', assets: ['./src/proto'] });

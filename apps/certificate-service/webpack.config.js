const { appWebpackConfig } = require('../../tools/build/webpack-app');

module.exports = appWebpackConfig(__dirname, {
  name: 'certificate-service',
  entries: ['worker', 'migrate'],
});

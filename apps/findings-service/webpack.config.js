const { appWebpackConfig } = require('../../tools/build/webpack-app');

module.exports = appWebpackConfig(__dirname, {
  name: 'findings-service',
  entries: ['worker', 'ingest-parser'],
});

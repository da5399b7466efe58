const { appWebpackConfig, protoAssets } = require('../../tools/build/webpack-app');

module.exports = appWebpackConfig(__dirname, {
  name: 'findings-service',
  entries: ['worker', 'ingest-parser', 'migrate'],
  // The plugin runner client (@platform/plugin-protocol) loads its proto files at run time.
  assets: protoAssets,
});

const { join } = require('node:path');
const { DefinePlugin } = require('webpack');
const { version } = require('../../../package.json');

/**
 * The script inside the single executable: sea-main.js and the agent's sources as one CommonJS
 * file (dist/device-agent/bundle/certsvc-agent.js). A Node SEA's main script can require only
 * Node's built-in modules, which is all the agent uses (node:crypto, node:fs, fetch).
 * Plain webpack + ts-loader (transpile only; `npx tsc -p tools/typecheck/tsconfig.json` checks
 * the types), so build-executable.mjs runs it without Nx: ~3 s instead of ~10 s. ts-loader is
 * @nx/webpack's, the loader `device-agent:build` (NxAppWebpackPlugin, compiler tsc) uses too.
 */
module.exports = {
  mode: 'production',
  target: 'node20',
  context: __dirname,
  entry: './sea-main.js',
  output: {
    path: join(__dirname, '../../../dist/device-agent/bundle'),
    filename: 'certsvc-agent.js',
    clean: true,
  },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        loader: 'ts-loader',
        options: { transpileOnly: true, configFile: join(__dirname, '../tsconfig.app.json') },
      },
    ],
  },
  externalsPresets: { node: true },
  optimization: { minimize: false },
  devtool: false,
  performance: { hints: false },
  plugins: [new DefinePlugin({ AGENT_VERSION: JSON.stringify(version) })],
};

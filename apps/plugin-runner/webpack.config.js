const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');
const { DefinePlugin } = require('webpack');

// Bundles the app (and the libs it imports through path aliases) with the tsc compiler so
// decorator metadata survives; node_modules stay external.
module.exports = {
  output: { path: join(__dirname, '../../dist/apps/plugin-runner') },
  devtool: 'source-map',
  plugins: [
    // webpack rewrites `require.main` to its own entry module record (no `filename`), which
    // hides the real entry from code that looks for files beside it (build-info.json).
    // Keep Node's `require.main` in the bundle.
    new DefinePlugin({ 'require.main': 'require.main' }),
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.app.json',
      additionalEntryPoints: [],
      assets: ['./src/proto'],
      externalDependencies: 'all',
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: false,
      sourceMap: true,
    }),
  ],
};

const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

/**
 * The agent as one file: dist/apps/device-agent/main.js, run with `node` (Node 20+).
 * The agent needs no npm package at run time (node:crypto, node:fs, fetch), so the bundle is
 * the whole program; copy it anywhere with a Node runtime.
 */
module.exports = {
  output: { path: join(__dirname, '../../dist/apps/device-agent') },
  devtool: false,
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/cli.ts',
      tsConfig: './tsconfig.app.json',
      externalDependencies: 'all',
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: false,
      sourceMap: false,
      ...(process.env.BUILD_TYPECHECK === 'false' ? { typeCheckOptions: false } : {}),
    }),
  ],
};

const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

// Bundles the app (and the libs it imports through path aliases) with the tsc compiler so
// decorator metadata survives; node_modules stay external.
module.exports = {
  output: { path: join(__dirname, '../../dist/apps/plugin-runner') },
  devtool: 'source-map',
  plugins: [
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

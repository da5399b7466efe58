const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

/**
 * The plugin runner's gRPC contract (`@platform/plugin-protocol`): its loader looks for the
 * proto files in `proto/` next to the entry bundle, so every app that imports the lib copies
 * them there.
 */
const protoAssets = [{ input: 'libs/plugin-protocol/src/proto', glob: '*.proto', output: 'proto' }];

/**
 * Webpack config of one Nest app: bundles the app and the libs it imports through path
 * aliases with the tsc compiler (keeps decorator metadata; esbuild/swc do not), leaving
 * node_modules external. `entries` adds extra entry points beside main.ts (the worker).
 */
function appWebpackConfig(appDir, { name, entries = [], assets = [] }) {
  return {
    output: { path: join(appDir, '../../dist/apps', name) },
    devtool: 'source-map',
    plugins: [
      new NxAppWebpackPlugin({
        target: 'node',
        compiler: 'tsc',
        main: './src/main.ts',
        tsConfig: './tsconfig.app.json',
        additionalEntryPoints: entries.map((entry) => ({
          entryName: entry,
          entryPath: `./src/${entry}.ts`,
        })),
        assets,
        externalDependencies: 'all',
        optimization: false,
        outputHashing: 'none',
        generatePackageJson: false,
        sourceMap: true,
        // BUILD_TYPECHECK=false: no type-check in the build (the bundled-worker test builds the
        // bundle after `npm test` type-checked everything; the check took ~30 s of its CPU).
        ...(process.env.BUILD_TYPECHECK === 'false' ? { typeCheckOptions: false } : {}),
      }),
    ],
  };
}

module.exports = { appWebpackConfig, protoAssets };

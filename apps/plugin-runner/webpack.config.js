const { appWebpackConfig, protoAssets } = require('../../tools/build/webpack-app');

/** The WebAssembly sandbox's thread scripts (src/wasm/threads/thread-scripts.ts looks there). */
const wasmThreadAssets = [
  { input: 'apps/plugin-runner/src/wasm/threads', glob: '*.mjs', output: 'wasm-threads' },
];

module.exports = appWebpackConfig(__dirname, {
  name: 'plugin-runner',
  assets: [...protoAssets, ...wasmThreadAssets],
});

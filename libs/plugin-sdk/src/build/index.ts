// @platform/plugin-sdk/build: the build command's wrapper for tools and tests (it spawns
// `bin/plugin-build.mjs`, which runs componentize-js; the runner never imports this entry).
export { buildPlugin, examplePluginDir, pluginBuildScript } from './build-plugin';
export type { BuildPluginOptions, BuiltPlugin } from './build-plugin';
export { componentCacheDir } from './component-cache';

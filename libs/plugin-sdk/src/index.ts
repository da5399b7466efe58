// @platform/plugin-sdk: what a plugin and its hosts share — the WIT world `findsvc:plugin`,
// the manifest format and its validator, Ed25519 signing of the manifest bytes. The build
// command (componentize-js) has its own entry, @platform/plugin-sdk/build, so the runner's
// bundle never carries the componentizer.
export * from './manifest/manifest.types';

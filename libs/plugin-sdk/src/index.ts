// @platform/plugin-sdk: what a plugin and its hosts share — the WIT world `findsvc:plugin`,
// the manifest format and its validator, Ed25519 signing of the manifest bytes. The build
// command (componentize-js) has its own entry, @platform/plugin-sdk/build, so the runner's
// bundle never carries the componentizer.
export * from './manifest/manifest.types';
export {
  ManifestError,
  parseManifest,
  satisfiesServiceVersion,
  secretSettingNames,
  validateManifest,
} from './manifest/manifest';
export {
  artifactDigest,
  generateSigningKeyPair,
  PluginArtifactError,
  signManifest,
  verifyManifestSignature,
  verifyPluginArtifact,
} from './signing/manifest-signing';
export type { PluginArtifactProblem, SigningKeyPair } from './signing/manifest-signing';
export {
  CAPABILITY_EXPORTS,
  exportInterfaceName,
  FINDING_TYPE,
  SUPPORTED_WIT_VERSIONS,
  supportedImports,
  TASK_STATUSES,
  WIT_PACKAGE,
  WIT_VERSION,
  witDirectory,
  witTypeMismatch,
} from './wit/wit-world';
export type { CapabilityExport, WitOperation, WitType } from './wit/wit-world';

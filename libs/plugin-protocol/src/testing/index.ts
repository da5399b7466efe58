// Test support entry (`@platform/plugin-protocol/testing`): a native channel plugin program
// and signed manifests for the runner's and the findings service's tests.
export {
  FIXTURE_NODE_PATH,
  artifactDigest,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
} from './native-channel-fixture';
export type {
  FixtureManifestOptions,
  NativeChannelFixtureVariant,
  PublisherKey,
  SignedFixture,
} from './native-channel-fixture';

// Test support entry (`@platform/pki/testing`): CSR builders for specs, e2e tests and benches.
export { ecKeyPair, rsaKeyPair, makeCsr, makeCsrWithSigner, flipLastByte } from './csr-factory';
export type { TestKeyPair, SubjectAttribute, CsrOptions } from './csr-factory';
export {
  SSH_KEYGEN_TYPES,
  inSshTempDir,
  sshKeygenKey,
  sshKeygenListCertificate,
  sshKeygenQueryKrl,
  sshKeygenDumpKrl,
  parseListedCertificate,
} from './ssh-keygen';
export type {
  SshKeygenKind,
  SshKeygenKey,
  SshKeygenResult,
  ListedSshCertificate,
} from './ssh-keygen';
export { EstStandIn } from './est-stand-in';
export type { EstCall, EstMisbehaviour, EstStandInOptions } from './est-stand-in';
export { selfSignedTlsIdentity } from './tls-test-identity';
export type { TlsIdentity } from './tls-test-identity';
export { ScepStandIn } from './scep-stand-in';
export type { ScepStandInMode, ScepStandInOptions, ReceivedScepMessage } from './scep-stand-in';
export { SCEPSERVER_BIN, startScepServer } from './scepserver';
export type { RunningScepServer, ScepServerOptions } from './scepserver';
export { loopbackEgressPolicy } from './scep-egress';
export {
  encodeTestCbor,
  testAppAttestRoot,
  testAppAttestIntermediate,
  testAppAttestation,
  APP_ATTEST_AAGUID_PRODUCTION,
  APP_ATTEST_AAGUID_DEVELOPMENT,
} from './app-attest-fixture';
export type {
  TestCborValue,
  TestCa,
  TestAttestation,
  TestAttestationOptions,
} from './app-attest-fixture';

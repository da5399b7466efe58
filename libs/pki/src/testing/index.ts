// Test support entry (`@platform/pki/testing`): CSR builders for specs, e2e tests and benches.
export { ecKeyPair, rsaKeyPair, makeCsr, flipLastByte } from './csr-factory';
export type { TestKeyPair, SubjectAttribute, CsrOptions } from './csr-factory';

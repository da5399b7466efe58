// @platform/pki: CSR, certificate and CRL building and parsing, DER helpers and CA key
// handling. Pure code (node:crypto only): no NestJS, no database, no service configuration.
export { PkiError } from './pki.errors';
export type { PkiErrorCode } from './pki.errors';

export { parseCsr, MAX_CSR_BYTES } from './csr/csr-parser';
export { RSA_MIN_BITS, RSA_MAX_BITS } from './csr/csr-public-key';
export type { ParsedCsr, RequestedSan, KeyAlgorithm, EcCurve } from './csr/csr.types';

export { LeafCertificateBuilder } from './certificate/leaf-builder';
export type {
  LeafRequest,
  LeafBuilderOptions,
  BuiltTbs,
  IssuedLeaf,
} from './certificate/leaf-builder';
export type { CertificateSigner, IssuingAuthority } from './certificate/certificate-signer';
export { PURPOSE_PROFILES, X509_PURPOSES, isX509Purpose } from './certificate/purposes';
export type { X509Purpose, PurposeProfile } from './certificate/purposes';
export type { Lifetime } from './certificate/lifetime';
export { lifetimeProblem, parseLifetime } from './certificate/lifetime';
export type { KeyUsageBit } from './certificate/key-usage';
export type { SubjectAltName } from './certificate/subject-alt-names';
export { validateCommonName } from './certificate/subject-name';
export { normalizeSerialHex } from './certificate/serial-number';
export {
  K8S_CREDENTIAL_SECONDS,
  issueK8sClientCertificate,
} from './certificate/k8s-client-certificate';
export type {
  K8sClientCertificateRequest,
  IssuedK8sClientCertificate,
} from './certificate/k8s-client-certificate';

export type { CaMaterial, CaCertificateMaterial, CaMaterialStore } from './ca/ca-material';
export { generateCaMaterial, ensureCaMaterial } from './ca/ca-bootstrap';
export type { CaGenerationOptions } from './ca/ca-bootstrap';
export { loadIssuingCa } from './ca/issuing-ca';
export { signRootCrl, caCertificatesHavePointers, reissueCaCertificates } from './ca/root-ca';
export type { CaCertificatePointers } from './ca/root-ca';
export type { RevocationPointers } from './certificate/extensions';
export type { LoadedIssuingCa } from './ca/issuing-ca';
export { parseKeyEncryptionKey, sealPrivateKey, openPrivateKey } from './ca/key-envelope';
export { readCertificateInfo } from './ca/certificate-info';
export type { CertificateInfo } from './ca/certificate-info';

export { encodeCrl } from './crl/crl-encoder';
export type { CrlInput, RevokedCertificateEntry } from './crl/crl-encoder';
export { REVOCATION_REASON_CODES, isRevocationReason } from './crl/revocation-reason';
export { parseOcspRequest, OCSP_MAX_REQUESTS } from './ocsp/ocsp-request';
export type { OcspCertId, ParsedOcspRequest } from './ocsp/ocsp-request';
export { OcspResponder, ocspErrorResponse } from './ocsp/ocsp-response';
export type { OcspAnswer, OcspCertStatus, OcspErrorStatus } from './ocsp/ocsp-response';
export type { RevocationReason } from './crl/revocation-reason';

export { BuiltInCaIssuer } from './issuer/built-in-ca-issuer';
export type {
  CertificateIssuer,
  IssuerCapabilities,
  IssuableCsr,
  IssueRequest,
  IssueOutcome,
  IssueFailure,
  IssueManyOutcome,
  RevokeOutcome,
  PendingPollState,
  PollRequest,
  PollOutcome,
} from './issuer/certificate-issuer';

export * from './est';

export { ScepIssuer, protectionOf } from './scep/scep-issuer';
export type { ScepIssuerConfig } from './scep/scep-issuer';
export { generateScepRequester, loadScepRequester } from './scep/scep-requester';
export type { ScepRequesterConfig } from './scep/scep-requester';
export type { ScepEgress } from './scep/scep-transport';
export { SCEP_MAX_ANSWER_BYTES, SCEP_DEFAULT_TIMEOUT_MS } from './scep/scep-transport';
export { normalizeFingerprint, sha256Fingerprint } from './scep/scep-ca-certificates';

export { buildCertificateBundle } from './bundle/certificate-bundle';
export type { CertificateBundleInput } from './bundle/certificate-bundle';
export { writeStoredZip } from './bundle/zip-writer';
export type { ZipEntry } from './bundle/zip-writer';

export { toPem, fromPem, certificatesFromPem } from './der/pem';
export { DerTag } from './der/der-tag';
export { Oids } from './der/oids';

export {
  SSH_KEY_TYPES,
  SSH_RSA_MIN_BITS,
  SSH_RSA_MAX_BITS,
  MAX_SSH_PUBLIC_KEY_TEXT,
  parseSshPublicKey,
  parseSshPublicKeyBlob,
  formatSshPublicKey,
} from './ssh/ssh-public-key';
export type { SshKeyType, SshPublicKey } from './ssh/ssh-public-key';
export {
  SSH_CERT_TYPE_USER,
  SSH_USER_EXTENSIONS,
  buildSshCertificate,
  formatSshCertificate,
} from './ssh/ssh-certificate';
export type {
  SshCertificateAuthority,
  SshCertificateFields,
  SshCriticalOption,
  IssuedSshCertificate,
} from './ssh/ssh-certificate';
export {
  SSH_USER_CA_KEY_LABEL,
  SshUserCa,
  generateSshCaMaterial,
  ensureSshCaMaterial,
} from './ssh/ssh-ca';
export type { SshCaMaterial, SshCaMaterialStore } from './ssh/ssh-ca';
export { encodeKrl } from './ssh/krl-encoder';
export type { KrlInput } from './ssh/krl-encoder';

export {
  EK_MAX_INTERMEDIATES,
  EK_MAX_CERTIFICATE_BYTES,
  verifyEkChain,
  parseTrustCertificate,
  certificateIssuedBy,
  isCaCertificate,
} from './tpm/ek-certificate';
export type {
  EkChainFailure,
  EkChainResult,
  EkTrustAnchor,
  TrustCertificate,
} from './tpm/ek-certificate';

export * from './tpm';

export * from './app-attest';

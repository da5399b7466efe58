export { TpmFormatError } from './tpm-reader';
export { parseTpmPublic, samePublicKey, MAX_TPM_PUBLIC_BYTES } from './tpm-public';
export type { TpmPublic, TpmObjectAttributes } from './tpm-public';
export { makeCredential, tpm2ToolsCredentialFile, CREDENTIAL_BYTES } from './make-credential';
export type { MadeCredential } from './make-credential';
export {
  parseTpmAttest,
  verifyTpmSignature,
  tpmQualifyingData,
  MAX_TPM_ATTEST_BYTES,
} from './tpm-attest';
export type { TpmAttest } from './tpm-attest';

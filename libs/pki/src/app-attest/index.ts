export { decodeCbor, CborError } from './cbor';
export type { CborValue, CborOptions } from './cbor';
export { verifyAppAttestation, MAX_APP_ATTESTATION_BYTES } from './app-attest-verifier';
export type { AppAttestVerifyInput, AppAttestVerdict } from './app-attest-verifier';
export { APP_ATTEST_NONCE_OID } from './attest-certificates';

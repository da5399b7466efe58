/** TPM 2.0 algorithm identifiers (TCG Algorithm Registry) this code reads. */
export const TpmAlg = {
  RSA: 0x0001,
  SHA1: 0x0004,
  AES: 0x0006,
  KEYEDHASH: 0x0008,
  SHA256: 0x000b,
  SHA384: 0x000c,
  SHA512: 0x000d,
  NULL: 0x0010,
  RSASSA: 0x0014,
  RSAES: 0x0015,
  RSAPSS: 0x0016,
  OAEP: 0x0017,
  ECDSA: 0x0018,
  ECDH: 0x0019,
  ECDAA: 0x001a,
  ECSCHNORR: 0x001c,
  ECC: 0x0023,
  CFB: 0x0043,
} as const;

/** Node digest names and sizes of the TPM hash algorithms accepted here. */
export const TPM_HASHES: ReadonlyMap<number, { name: string; size: number }> = new Map([
  [TpmAlg.SHA1, { name: 'sha1', size: 20 }],
  [TpmAlg.SHA256, { name: 'sha256', size: 32 }],
  [TpmAlg.SHA384, { name: 'sha384', size: 48 }],
  [TpmAlg.SHA512, { name: 'sha512', size: 64 }],
]);

/** TPM_ECC_CURVE values and their JWK names and coordinate sizes. */
export const TPM_CURVES: ReadonlyMap<number, { crv: string; size: number }> = new Map([
  [0x0003, { crv: 'P-256', size: 32 }],
  [0x0004, { crv: 'P-384', size: 48 }],
  [0x0005, { crv: 'P-521', size: 66 }],
]);

/** TPMA_OBJECT bits. */
export const TpmaObject = {
  fixedTPM: 1 << 1,
  stClear: 1 << 2,
  fixedParent: 1 << 4,
  sensitiveDataOrigin: 1 << 5,
  userWithAuth: 1 << 6,
  adminWithPolicy: 1 << 7,
  noDA: 1 << 10,
  encryptedDuplication: 1 << 11,
  restricted: 1 << 16,
  decrypt: 1 << 17,
  sign: 1 << 18,
} as const;

/** TPM_GENERATED_VALUE: the first field of every structure the TPM signs itself. */
export const TPM_GENERATED_VALUE = 0xff544347;

export const TpmSt = {
  ATTEST_CERTIFY: 0x8017,
  ATTEST_QUOTE: 0x8018,
} as const;

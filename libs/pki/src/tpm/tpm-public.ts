import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { TPM_CURVES, TPM_HASHES, TpmAlg, TpmaObject } from './tpm-constants';
import { TpmFormatError, TpmReader, u16 } from './tpm-reader';

/** Largest TPM2B_PUBLIC accepted (an RSA-4096 key with a policy is well under 1 KiB). */
export const MAX_TPM_PUBLIC_BYTES = 2048;

export interface TpmObjectAttributes {
  readonly fixedTPM: boolean;
  readonly fixedParent: boolean;
  readonly sensitiveDataOrigin: boolean;
  readonly userWithAuth: boolean;
  readonly restricted: boolean;
  readonly decrypt: boolean;
  readonly sign: boolean;
}

/** A parsed TPMT_PUBLIC of an RSA or ECC key. */
export interface TpmPublic {
  readonly type: 'rsa' | 'ecc';
  /** Hash of the object's name (TPM_ALG_ID). */
  readonly nameAlg: number;
  readonly attributes: TpmObjectAttributes;
  readonly rawAttributes: number;
  /** Signing scheme and its hash, `null` when the key leaves the scheme open (TPM_ALG_NULL). */
  readonly scheme: { readonly alg: number; readonly hash: number } | null;
  readonly publicKey: KeyObject;
  /** The marshalled TPMT_PUBLIC (what the name hashes). */
  readonly tpmtPublic: Buffer;
  /** TPM name: nameAlg ‖ H_nameAlg(TPMT_PUBLIC). */
  readonly name: Buffer;
}

/**
 * Parses a TPM2B_PUBLIC (`tpm2_createak -u`, `tpm2_readpublic -f tss`) or a bare
 * TPMT_PUBLIC. Throws `TpmFormatError` on anything malformed or unsupported.
 */
export function parseTpmPublic(input: Buffer): TpmPublic {
  if (input.length < 10 || input.length > MAX_TPM_PUBLIC_BYTES) {
    throw new TpmFormatError(`public area of ${input.length} bytes`);
  }
  const tpmt = input.readUInt16BE(0) === input.length - 2 ? input.subarray(2) : input;
  const reader = new TpmReader(tpmt);
  const type = reader.u16();
  const nameAlg = reader.u16();
  const hash = TPM_HASHES.get(nameAlg);
  if (!hash) throw new TpmFormatError(`name algorithm 0x${nameAlg.toString(16)} is not supported`);
  const rawAttributes = reader.u32();
  reader.sized(64); // authPolicy
  let parsed: { scheme: TpmPublic['scheme']; publicKey: KeyObject };
  if (type === TpmAlg.RSA) parsed = readRsa(reader);
  else if (type === TpmAlg.ECC) parsed = readEcc(reader);
  else throw new TpmFormatError(`object type 0x${type.toString(16)} is not an RSA or ECC key`);
  reader.end('TPMT_PUBLIC');
  return {
    type: type === TpmAlg.RSA ? 'rsa' : 'ecc',
    nameAlg,
    attributes: attributesOf(rawAttributes),
    rawAttributes,
    scheme: parsed.scheme,
    publicKey: parsed.publicKey,
    tpmtPublic: tpmt,
    name: Buffer.concat([u16(nameAlg), createHash(hash.name).update(tpmt).digest()]),
  };
}

function attributesOf(bits: number): TpmObjectAttributes {
  const has = (bit: number): boolean => (bits & bit) !== 0;
  return {
    fixedTPM: has(TpmaObject.fixedTPM),
    fixedParent: has(TpmaObject.fixedParent),
    sensitiveDataOrigin: has(TpmaObject.sensitiveDataOrigin),
    userWithAuth: has(TpmaObject.userWithAuth),
    restricted: has(TpmaObject.restricted),
    decrypt: has(TpmaObject.decrypt),
    sign: has(TpmaObject.sign),
  };
}

/** TPMT_SYM_DEF_OBJECT: algorithm, then key bits and mode unless NULL. */
function skipSymmetric(reader: TpmReader): void {
  if (reader.u16() !== TpmAlg.NULL) {
    reader.u16();
    reader.u16();
  }
}

/** TPMT_RSA_SCHEME / TPMT_ECC_SCHEME: scheme, then its details unless NULL. */
function readScheme(reader: TpmReader): TpmPublic['scheme'] {
  const alg = reader.u16();
  if (alg === TpmAlg.NULL) return null;
  const hash = reader.u16();
  if (alg === TpmAlg.ECDAA) reader.u16(); // count
  return { alg, hash };
}

function readRsa(reader: TpmReader): { scheme: TpmPublic['scheme']; publicKey: KeyObject } {
  skipSymmetric(reader);
  const scheme = readScheme(reader);
  const keyBits = reader.u16();
  const exponent = reader.u32();
  const modulus = reader.sized(512);
  if (keyBits < 1024 || keyBits > 4096 || modulus.length * 8 !== keyBits) {
    throw new TpmFormatError(`RSA modulus of ${modulus.length * 8} bits for ${keyBits}`);
  }
  const e = exponent === 0 ? 65537 : exponent;
  const publicKey = createPublicKey({
    key: { kty: 'RSA', n: modulus.toString('base64url'), e: intBytes(e).toString('base64url') },
    format: 'jwk',
  });
  return { scheme, publicKey };
}

function readEcc(reader: TpmReader): { scheme: TpmPublic['scheme']; publicKey: KeyObject } {
  skipSymmetric(reader);
  const scheme = readScheme(reader);
  const curveId = reader.u16();
  const curve = TPM_CURVES.get(curveId);
  if (!curve) throw new TpmFormatError(`ECC curve 0x${curveId.toString(16)} is not supported`);
  if (reader.u16() !== TpmAlg.NULL) reader.u16(); // kdf scheme and its hash
  const x = reader.sized(curve.size);
  const y = reader.sized(curve.size);
  try {
    const publicKey = createPublicKey({
      key: {
        kty: 'EC',
        crv: curve.crv,
        x: leftPad(x, curve.size).toString('base64url'),
        y: leftPad(y, curve.size).toString('base64url'),
      },
      format: 'jwk',
    });
    return { scheme, publicKey };
  } catch {
    throw new TpmFormatError('ECC point is not on the curve');
  }
}

function intBytes(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  let start = 0;
  while (start < 3 && out[start] === 0) start++;
  return out.subarray(start);
}

function leftPad(value: Buffer, size: number): Buffer {
  return value.length >= size ? value : Buffer.concat([Buffer.alloc(size - value.length), value]);
}

/** Whether two public keys are the same key (compared as SPKI DER). */
export function samePublicKey(a: KeyObject, b: KeyObject): boolean {
  const da = a.export({ format: 'der', type: 'spki' });
  const db = b.export({ format: 'der', type: 'spki' });
  return da.length === db.length && da.equals(db);
}

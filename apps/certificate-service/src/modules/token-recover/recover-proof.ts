import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { parseTpmPublic, verifyTpmSignature } from '@platform/pki';

/** Which pinned key the agent proves: the continuity key (SPKI PEM) or the TPM attestation key. */
export const RECOVER_KEYS = ['continuity', 'ak'] as const;
export type RecoverKey = (typeof RECOVER_KEYS)[number];

/** Domain tag of the signed message; a new layout gets a new version. */
export const RECOVER_MESSAGE_TAG = 'certsvc-token-recover/v1';

/** Largest decoded signature accepted (RSA-4096 in a TPMT_SIGNATURE is 520 bytes). */
export const MAX_RECOVER_SIGNATURE_BYTES = 1024;

/** Smallest RSA modulus accepted for a continuity key. */
const MIN_RSA_BITS = 2048;

/**
 * The bytes the agent signs: the UTF-8 of
 * `certsvc-token-recover/v1 NUL <key> NUL <serial> NUL <nonce>` (NUL is one 0x00 byte, no
 * spaces). The key name binds the proof to the slot it claims; serial and nonce bind it to one
 * device and one server challenge. Serials and nonces cannot contain NUL (printable ASCII and
 * base64url), so the layout is unambiguous.
 */
export function recoverMessage(key: RecoverKey, serial: string, nonce: string): Buffer {
  return Buffer.from([RECOVER_MESSAGE_TAG, key, serial, nonce].join('\0'), 'utf8');
}

/** Why a proof was refused (server log only; the client always gets the same refusal). */
export type ProofFailure =
  'pinned_key_unreadable' | 'pinned_key_unsupported' | 'signature_hash_weak' | 'signature_invalid';

export type ProofResult = { ok: true } | { ok: false; cause: ProofFailure };

/**
 * Checks `signature` over `message` with the continuity key pinned as SPKI PEM. SHA-256 for
 * every key type that takes a digest: ECDSA (P-256, P-384, P-521) with a DER signature, RSA
 * (at least 2048 bits) with PKCS#1 v1.5 or PSS (any salt length), RSA-PSS keys with PSS;
 * Ed25519 and Ed448 sign the message itself.
 */
export function verifyContinuityProof(
  pinnedPem: string,
  message: Buffer,
  signature: Buffer,
): ProofResult {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pinnedPem, format: 'pem' });
  } catch {
    return { ok: false, cause: 'pinned_key_unreadable' };
  }
  const attempts = continuityChecks(key);
  if (attempts === null) return { ok: false, cause: 'pinned_key_unsupported' };
  for (const check of attempts) {
    try {
      if (check(message, signature)) return { ok: true };
    } catch {
      // malformed for this scheme (e.g. a DER parse error): try the next, then refuse
    }
  }
  return { ok: false, cause: 'signature_invalid' };
}

type Check = (message: Buffer, signature: Buffer) => boolean;

function continuityChecks(key: KeyObject): Check[] | null {
  switch (key.asymmetricKeyType) {
    case 'ec':
      return [(m, s) => verify('sha256', m, key, s)];
    case 'ed25519':
    case 'ed448':
      return [(m, s) => verify(null, m, key, s)];
    case 'rsa':
      if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return null;
      return [(m, s) => verify('sha256', m, key, s), pss(key)];
    case 'rsa-pss':
      if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return null;
      return [pss(key)];
    case 'dsa':
    case 'x25519':
    case 'x448':
    case undefined:
      return null;
  }
}

function pss(key: KeyObject): Check {
  return (m, s) =>
    verify(
      'sha256',
      m,
      { key, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: -2 /* auto */ },
      s,
    );
}

/** TPM_ALG_ID of the signature schemes `verifyTpmSignature` decodes, and of SHA-1. */
const TPMT_SIGNATURE_ALGS = new Set([0x0014 /* RSASSA */, 0x0016 /* RSAPSS */, 0x0018 /* ECDSA */]);
const TPM_ALG_SHA1 = 0x0004;

/**
 * Checks `signature` over `message` with the TPM attestation key pinned as TPM2B_PUBLIC: a
 * TPMT_SIGNATURE (`tpm2_sign -g sha256`; SHA-384 and SHA-512 too, SHA-1 refused) or a plain
 * DER ECDSA / PKCS#1 signature (`-f plain`, SHA-256); see `verifyTpmSignature` in libs/pki.
 */
export function verifyAkProof(pinned: Buffer, message: Buffer, signature: Buffer): ProofResult {
  if (
    signature.length >= 4 &&
    TPMT_SIGNATURE_ALGS.has(signature.readUInt16BE(0)) &&
    signature.readUInt16BE(2) === TPM_ALG_SHA1
  ) {
    return { ok: false, cause: 'signature_hash_weak' };
  }
  let key: KeyObject;
  try {
    key = parseTpmPublic(pinned).publicKey;
  } catch {
    return { ok: false, cause: 'pinned_key_unreadable' };
  }
  return verifyTpmSignature(key, message, signature)
    ? { ok: true }
    : { ok: false, cause: 'signature_invalid' };
}

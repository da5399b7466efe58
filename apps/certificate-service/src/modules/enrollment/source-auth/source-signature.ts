import { createPublicKey, verify } from 'node:crypto';

/** Signatures are base64 (standard or URL-safe) of at most this many bytes. */
const MAX_SIGNATURE_BYTES = 1024;

/**
 * Verifies the source signature: SHA-256 over the exact request body, ECDSA (DER-encoded
 * signature) or RSA PKCS#1 v1.5, made with the key whose public half is in the CSR.
 */
export function verifySourceSignature(
  spkiDer: Buffer,
  body: Buffer,
  signatureB64: string,
): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(signatureB64)) return false;
  const signature = Buffer.from(signatureB64, 'base64');
  if (signature.length === 0 || signature.length > MAX_SIGNATURE_BYTES) return false;
  try {
    const key = createPublicKey({ key: spkiDer, format: 'der', type: 'spki' });
    return verify('sha256', body, key, signature);
  } catch {
    return false;
  }
}

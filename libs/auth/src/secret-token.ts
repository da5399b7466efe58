import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex digest: how API tokens and refresh tokens are stored (never the value). */
export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

/** URL-safe random secret with `bytes` of entropy. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** Constant-time comparison of two strings (different lengths compare unequal). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

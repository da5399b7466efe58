import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { safeEqual } from '@platform/auth';
import type { EnrollNonceKind } from './enroll-nonce.entity';

/** What a signed nonce carries. */
export interface OpenedNonce {
  kind: EnrollNonceKind;
  expiresAt: Date;
}

const VERSION = 'n1';
const KIND_TAGS: Record<EnrollNonceKind, string> = { enroll: 'e', source: 's' };
const RANDOM_BYTES = 18;
const MAC_BYTES = 16;
/** Only the canonical spelling opens (no leading zero, the MAC as encoded): one string per nonce. */
const SHAPE = /^n1\.([es])\.([1-9a-z][0-9a-z]{0,8})\.[A-Za-z0-9_-]{24}\.([A-Za-z0-9_-]{22})$/;

/**
 * A nonce that carries its kind and expiry under the service's own MAC, so issuing one writes
 * nothing: `n1.<kind>.<expiry, Unix seconds, base 36>.<18 random bytes>.<MAC>`, the MAC being
 * the first 16 bytes of HMAC-SHA-256 over the rest under a key every replica derives from the
 * JWT secret they share (HKDF, its own label). Single use is the row its consumption writes
 * (`enroll_nonces`, primary key: the nonce's SHA-256), so a second use on any replica finds
 * it; a nonce whose MAC, kind or syntax is wrong opens to nothing.
 */
export class NonceSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'certsvc', 'enroll-nonce/v1', 32));
  }

  /** A new nonce of `kind` valid until `expiresAt`, truncated to the second (returned). */
  sign(kind: EnrollNonceKind, expiresAt: Date): { nonce: string; expiresAt: Date } {
    const seconds = Math.floor(expiresAt.getTime() / 1000);
    const random = randomBytes(RANDOM_BYTES).toString('base64url');
    const body = `${VERSION}.${KIND_TAGS[kind]}.${seconds.toString(36)}.${random}`;
    return {
      nonce: `${body}.${this.mac(body).toString('base64url')}`,
      expiresAt: new Date(seconds * 1000),
    };
  }

  /** The kind and expiry a nonce of this signer carries; undefined for anything else. */
  open(nonce: string): OpenedNonce | undefined {
    const match = SHAPE.exec(nonce);
    if (!match) return undefined;
    const body = nonce.slice(0, nonce.lastIndexOf('.'));
    if (!safeEqual(match[3], this.mac(body).toString('base64url'))) return undefined;
    const kind: EnrollNonceKind = match[1] === KIND_TAGS.source ? 'source' : 'enroll';
    return { kind, expiresAt: new Date(parseInt(match[2], 36) * 1000) };
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, MAC_BYTES);
  }
}

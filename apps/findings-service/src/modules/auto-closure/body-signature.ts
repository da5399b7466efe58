import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature scheme of scanner callbacks and of our re-verification requests
 * (docs/findings-service/auto-closure.md#signatures): HMAC-SHA256 with the shared secret over
 * `<timestamp>.<raw body>`, where the timestamp is Unix seconds, sent as `v1=<hex>`. Signing the
 * timestamp with the body makes a captured request useless once the timestamp is stale.
 */
export const SIGNATURE_VERSION = 'v1';

export function signBody(secret: string, timestamp: number, body: Uint8Array | string): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return `${SIGNATURE_VERSION}=${mac.digest('hex')}`;
}

/**
 * Whether `header` (one or more comma-separated `v1=<hex>` values, so a sender may sign with
 * both keys during a rotation) holds the signature of `body` at `timestamp`; constant time.
 */
export function signatureMatches(
  secret: string,
  timestamp: number,
  body: Uint8Array,
  header: string,
): boolean {
  const expected = Buffer.from(signBody(secret, timestamp, body), 'utf8');
  let match = false;
  for (const part of header.split(',')) {
    const given = Buffer.from(part.trim(), 'utf8');
    if (given.length === expected.length && timingSafeEqual(given, expected)) match = true;
  }
  return match;
}

/** Parses a Unix-seconds timestamp header (digits only, no sign or fraction). */
export function parseTimestamp(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,12}$/.test(value)) return undefined;
  return Number(value);
}

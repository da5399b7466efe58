import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signature scheme version in `X-Certsvc-Signature: v1=<hex>`. */
export const SIGNATURE_VERSION = 'v1';

/** HMAC-SHA256 over `<timestamp>.<body>` with the endpoint's secret, lower-case hex. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** Headers of one signed POST (the delivery id is the receiver's idempotency key). */
export function signedHeaders(input: {
  secret: string;
  body: string;
  event: string;
  deliveryId: string;
  now?: Date;
}): Record<string, string> {
  const timestamp = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'certificate-service-webhooks/1',
    'x-certsvc-event': input.event,
    'x-certsvc-delivery': input.deliveryId,
    'x-certsvc-timestamp': String(timestamp),
    'x-certsvc-signature': `${SIGNATURE_VERSION}=${signWebhook(input.secret, timestamp, input.body)}`,
  };
}

/**
 * What a receiver does (docs/certificate-service/webhooks.md): recompute the HMAC over the raw
 * body, compare in constant time, and refuse a timestamp outside its tolerance (replays).
 */
export function verifyWebhook(input: {
  secret: string;
  body: string;
  timestamp: string | undefined;
  signature: string | undefined;
  toleranceSeconds?: number;
  now?: Date;
}): boolean {
  const ts = Number(input.timestamp);
  if (!Number.isInteger(ts) || !input.signature?.startsWith(`${SIGNATURE_VERSION}=`)) return false;
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - ts) > (input.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhook(input.secret, ts, input.body), 'hex');
  const given = Buffer.from(input.signature.slice(SIGNATURE_VERSION.length + 1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

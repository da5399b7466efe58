import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long the secret before a rotation keeps being accepted (a day, design §3.7). */
export const PREVIOUS_SECRET_TTL_SECONDS = 86_400;

/** A new webhook secret: 32 random bytes, base64url (43 characters, safe in a URL path). */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashWebhookSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** The stored hashes of a project's webhook secrets. */
export interface StoredWebhookSecrets {
  current: Buffer | null;
  previous: Buffer | null;
  previousValidUntil: Date | null;
}

/**
 * Whether `secret` is the project's current secret, or its previous one while the rotation
 * grace lasts. Both hashes are compared in constant time whatever the first answer is, so a
 * stale, unknown and current secret take the same path.
 */
export function webhookSecretAccepted(
  secret: string,
  stored: StoredWebhookSecrets,
  now: Date,
): boolean {
  const given = hashWebhookSecret(secret);
  const same = (hash: Buffer | null): boolean =>
    timingSafeEqual(given, hash && hash.length === given.length ? hash : Buffer.alloc(32)) &&
    hash !== null &&
    hash.length === given.length;
  const current = same(stored.current);
  const previous = same(stored.previous);
  const inGrace = stored.previousValidUntil !== null && now < stored.previousValidUntil;
  return current || (previous && inGrace);
}

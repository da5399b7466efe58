import { randomHex, randomSecret, sha256Hex } from '@platform/auth';

/** `sa_<8 hex public prefix>_<base64url secret of 32 random bytes>` */
const KEY_PATTERN = /^sa_([0-9a-f]{8})_([A-Za-z0-9_-]{43,128})$/;

export interface GeneratedApiKey {
  /** Shown once to the creator; never stored. */
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const prefix = randomHex(4);
  const key = `sa_${prefix}_${randomSecret(32)}`;
  return { key, prefix, hash: sha256Hex(key) };
}

/** The public prefix of a well-formed key, or null. */
export function apiKeyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

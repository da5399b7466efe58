import { randomSecret, sha256Hex } from '@platform/auth';

/** Prefix that marks a bearer token as a service-account token (checked before JWT). */
export const SERVICE_ACCOUNT_TOKEN_PREFIX = 'wca_';

export interface IssuedToken {
  token: string;
  hash: string;
  /** Shown in lists to recognise a token: `wca_` and 8 characters. */
  displayPrefix: string;
}

export function issueServiceAccountToken(): IssuedToken {
  const token = `${SERVICE_ACCOUNT_TOKEN_PREFIX}${randomSecret(32)}`;
  return { token, hash: sha256Hex(token), displayPrefix: token.slice(0, 12) };
}

export function isServiceAccountToken(bearer: string): boolean {
  return bearer.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX);
}

/** `expires_in_days` 0 means never. */
export function expiryOf(createdAt: Date, expiresInDays: number): Date | null {
  return expiresInDays === 0 ? null : new Date(createdAt.getTime() + expiresInDays * 86_400_000);
}

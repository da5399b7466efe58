import { currentNumericDate, tokenTimeViolation, type TokenTimeClaims } from '../token-time-claims';

/** How one service signs and checks its access tokens (HS256 JWTs for `Authorization: Bearer`). */
export interface AccessTokenPolicy {
  issuer: string;
  audience: string;
  secret: string;
  ttlSeconds: number;
}

/** Nest injection token of the service's `AccessTokenPolicy`. */
export const ACCESS_TOKEN_POLICY = Symbol('ACCESS_TOKEN_POLICY');

/** `typ` of an access token: a refresh token or an ID token is never accepted as one. */
export const ACCESS_TOKEN_TYPE = 'access';
export const ACCESS_TOKEN_ALGORITHM = 'HS256';

/** Claims of an access token as decoded (after the signature, issuer and audience checks). */
export interface AccessTokenClaims extends TokenTimeClaims {
  sub?: unknown;
  typ?: unknown;
}

/**
 * The subject of an access token whose signature, issuer and audience were verified: `typ`
 * must be `access`, `sub` a string, and the shared time rule must hold (exp and iat
 * required). Null when any of that fails.
 */
export function accessTokenSubject(
  claims: AccessTokenClaims,
  nowSeconds = currentNumericDate(),
): string | null {
  if (claims.typ !== ACCESS_TOKEN_TYPE || typeof claims.sub !== 'string') return null;
  return tokenTimeViolation(claims, { nowSeconds }) === null ? claims.sub : null;
}

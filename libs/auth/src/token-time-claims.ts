/** Clock difference tolerated between the token's issuer and the verifying process. */
export const TOKEN_CLOCK_SKEW_SECONDS = 30;

export type TokenTimeViolation =
  | 'exp_missing'
  | 'iat_missing'
  | 'exp_not_numeric'
  | 'iat_not_numeric'
  | 'nbf_not_numeric'
  | 'expired'
  | 'not_yet_valid'
  | 'issued_in_future'
  | 'expires_before_issued';

/** The registered time claims of a JWT payload, as decoded (not yet trusted to be numbers). */
export interface TokenTimeClaims {
  exp?: unknown;
  iat?: unknown;
  nbf?: unknown;
}

export interface TokenTimeCheck {
  /** Seconds since the epoch (JWT NumericDate). */
  nowSeconds: number;
  skewSeconds?: number;
}

export function currentNumericDate(): number {
  return Math.floor(Date.now() / 1000);
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The access-token time rule both services apply after the signature check: `exp` and `iat`
 * are required NumericDates, `nbf` is checked when present, each with `skewSeconds` of
 * tolerance. Returns the first violation, or null when the token is within its lifetime.
 */
export function tokenTimeViolation(
  claims: Readonly<TokenTimeClaims>,
  check: TokenTimeCheck,
): TokenTimeViolation | null {
  const { exp, iat, nbf } = claims;
  const now = check.nowSeconds;
  const skew = check.skewSeconds ?? TOKEN_CLOCK_SKEW_SECONDS;
  if (exp === undefined) return 'exp_missing';
  if (iat === undefined) return 'iat_missing';
  if (!isNumericDate(exp)) return 'exp_not_numeric';
  if (!isNumericDate(iat)) return 'iat_not_numeric';
  if (nbf !== undefined && !isNumericDate(nbf)) return 'nbf_not_numeric';
  if (exp <= iat) return 'expires_before_issued';
  if (now >= exp + skew) return 'expired';
  if (iat > now + skew) return 'issued_in_future';
  if (nbf !== undefined && nbf > now + skew) return 'not_yet_valid';
  return null;
}

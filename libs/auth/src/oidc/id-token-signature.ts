import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { TOKEN_CLOCK_SKEW_SECONDS } from '../token-time-claims';
import { OidcSignInError } from './oidc-sign-in.error';

/** Asymmetric JWS algorithms an ID token may be signed with (never `none`, never HMAC). */
export const ID_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/**
 * Checks ID-token signatures against the provider's JWKS. Keys are cached; a token whose
 * `kid` is not in the cache makes exactly one refetch of the JWKS (the provider rotated its
 * keys), and is refused when the fresh set does not hold it either. No cool-down between
 * refetches: ID tokens reach this check only from our own code exchange with the provider.
 */
export class IdTokenSignature {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    jwksUri: string,
    private readonly expected: { issuer: string; audience: string },
    timeoutMs: number,
  ) {
    this.keys = createRemoteJWKSet(new URL(jwksUri), {
      cooldownDuration: 0,
      cacheMaxAge: 10 * 60_000,
      timeoutDuration: timeoutMs,
    });
  }

  async verify(idToken: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(idToken, this.keys, {
        issuer: this.expected.issuer,
        audience: this.expected.audience,
        algorithms: ID_TOKEN_ALGORITHMS,
        clockTolerance: TOKEN_CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
        throw new OidcSignInError('provider_unavailable', `JWKS: ${(error as Error).message}`);
      }
      if (error instanceof errors.JOSEError) {
        throw new OidcSignInError('id_token_invalid', `${error.code}: ${error.message}`);
      }
      if (error instanceof TypeError) {
        throw new OidcSignInError('provider_unavailable', `JWKS fetch: ${error.message}`);
      }
      throw error;
    }
  }
}

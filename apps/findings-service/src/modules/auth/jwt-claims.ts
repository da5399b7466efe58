import type { TokenTimeClaims } from '@platform/auth';

export const JWT_ISSUER = 'findings-service';
export const JWT_AUDIENCE = 'findings-service/api';
export const ACCESS_TOKEN_TYPE = 'access';
export const JWT_STRATEGY = 'findings-jwt';

/** Claims of an access token (HS256); the time claims are checked by `tokenTimeViolation`. */
export interface AccessTokenClaims extends TokenTimeClaims {
  sub: string;
  typ: typeof ACCESS_TOKEN_TYPE;
  iss?: string;
  aud?: string | string[];
}

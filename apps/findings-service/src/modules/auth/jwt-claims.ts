export const JWT_ISSUER = 'findings-service';
export const JWT_AUDIENCE = 'findings-service/api';
export const ACCESS_TOKEN_TYPE = 'access';
export const JWT_STRATEGY = 'findings-jwt';

/** Claims of an access token (HS256). */
export interface AccessTokenClaims {
  sub: string;
  typ: typeof ACCESS_TOKEN_TYPE;
  iss?: string;
  aud?: string | string[];
  iat?: number;
  exp?: number;
}

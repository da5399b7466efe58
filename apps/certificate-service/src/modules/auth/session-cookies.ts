import type { CookieShape } from '@platform/auth';

export const REFRESH_COOKIE = 'certsvc_refresh_token';

/** The refresh token as an httpOnly cookie scoped to the auth routes. */
export const REFRESH_COOKIE_SHAPE: CookieShape = {
  name: REFRESH_COOKIE,
  path: '/api/v1/auth',
  sameSite: 'Strict',
  lifetime: 'expires',
  maxValueLength: 256,
};

/** Claims of the certificate service's access tokens (`sub` is the user's email). */
export const ACCESS_TOKEN_ISSUER = 'certificate-service';
export const ACCESS_TOKEN_AUDIENCE = 'certificate-service-api';

/** Prefix of refresh-token values, so a leaked one is recognisable. */
export const REFRESH_TOKEN_PREFIX = 'rt_';

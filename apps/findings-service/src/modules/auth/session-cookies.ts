import type { CookieShape } from '@platform/auth';

export const REFRESH_COOKIE = 'findsvc_refresh';

/** The refresh token: sent only to the auth routes, never readable by scripts. */
export const REFRESH_COOKIE_SHAPE: CookieShape = {
  name: REFRESH_COOKIE,
  path: '/api/v1/auth',
  sameSite: 'Strict',
  lifetime: 'max-age',
  maxValueLength: 512,
};

/**
 * A started single sign-on (sealed state, nonce and PKCE verifier). Lax: the provider's
 * redirect back to the callback is a cross-site navigation that must carry it.
 */
export const SSO_FLOW_COOKIE_SHAPE: CookieShape = {
  name: 'findsvc_sso_flow',
  path: '/api/v1/auth/sso',
  sameSite: 'Lax',
  lifetime: 'max-age',
  maxValueLength: 2048,
};

/** Claims of the findings service's access tokens (`sub` is the user id). */
export const ACCESS_TOKEN_ISSUER = 'findings-service';
export const ACCESS_TOKEN_AUDIENCE = 'findings-service/api';

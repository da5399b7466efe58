/**
 * The signed-in session (the shared store of @platform/web-ui): the access token lives in
 * memory only; the refresh token is the HttpOnly `findsvc_refresh` cookie (Path=/api/v1/auth,
 * SameSite=Strict), which the browser sends on the same origin. A reload restores the session
 * through POST /auth/token/refresh — the one public/session-boot.js started while the bundle
 * loaded, taken once.
 */
import { createSessionStore } from '@platform/web-ui/core';
import type { components } from './schema.gen';

export type User = components['schemas']['UserDto'];

const store = createSessionStore<User>({
  bootGlobal: '__findingsSessionBoot',
  refresh: (locale) =>
    fetch('/api/v1/auth/token/refresh', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Accept-Language': locale },
    }),
  parse: (body) => {
    const { data } = body as { data: { access_token: string; user: User } };
    return { token: data.access_token, user: data.user };
  },
});

export const {
  currentAccessToken,
  currentUser,
  setLocaleHeader,
  acceptLanguage,
  subscribeSession,
  setSession,
  restoreSession,
  refreshSession,
} = store;
export const session = store;

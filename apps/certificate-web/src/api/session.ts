/**
 * The signed-in session (the shared store of @platform/web-ui): the access token lives in
 * memory only; the refresh token is the HttpOnly `certsvc_refresh_token` cookie (Path=/api/v1/auth,
 * SameSite=Strict), which the browser sends on the same origin (server/serve.mjs proxies the
 * API). A reload restores the session through POST /api/v1/auth/refresh — the one
 * public/session-boot.js started while the bundle loaded, taken once.
 */
import { createSessionStore } from '@platform/web-ui/core';
import type { components } from './schema.gen';

export type User = components['schemas']['MeDto'];
export type TokenAnswer = components['schemas']['TokenDto'];

const store = createSessionStore<User>({
  bootGlobal: '__certificateSessionBoot',
  refresh: (locale) =>
    fetch('/api/v1/auth/refresh', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': locale },
      body: '{}',
    }),
  parse: (body) => {
    const answer = body as TokenAnswer;
    return { token: answer.access_token, user: answer.user };
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

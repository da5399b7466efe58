import type { FastifyReply, FastifyRequest } from 'fastify';

// Written by hand: @fastify/cookie loads the ESM-only `cookie` package through a dynamic
// import, which Jest on Node 20 cannot run. One cookie with a URL-safe value needs no more.
export const REFRESH_COOKIE = 'certsvc_refresh_token';
const COOKIE_PATH = '/api/v1/auth';

function attributes(secure: boolean): string {
  return `Path=${COOKIE_PATH}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Refresh token as an httpOnly cookie scoped to the auth routes. */
export function setRefreshCookie(
  reply: FastifyReply,
  token: string,
  expires: Date,
  secure: boolean,
): void {
  void reply.header(
    'set-cookie',
    `${REFRESH_COOKIE}=${token}; Expires=${expires.toUTCString()}; ${attributes(secure)}`,
  );
}

export function clearRefreshCookie(reply: FastifyReply, secure: boolean): void {
  void reply.header(
    'set-cookie',
    `${REFRESH_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(secure)}`,
  );
}

export function refreshCookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,256}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

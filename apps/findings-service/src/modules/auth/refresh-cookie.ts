import type { FastifyReply, FastifyRequest } from 'fastify';

export const REFRESH_COOKIE = 'findsvc_refresh';
export const REFRESH_COOKIE_PATH = '/api/v1/auth';

// Hand-written rather than @fastify/cookie: that plugin loads the ESM-only `cookie` package
// with a dynamic import, which Jest on Node 20 cannot run. The token is base64url: no escaping.

/** The refresh token from the `Cookie` header, if any. */
export function readRefreshCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,512}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

function serialize(value: string, maxAgeSeconds: number, secure: boolean): string {
  const attributes = [
    `${REFRESH_COOKIE}=${value}`,
    `Max-Age=${maxAgeSeconds}`,
    `Path=${REFRESH_COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (maxAgeSeconds === 0) attributes.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

export function setRefreshCookie(
  reply: FastifyReply,
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
): void {
  void reply.header('Set-Cookie', serialize(value, maxAgeSeconds, secure));
}

export function clearRefreshCookie(reply: FastifyReply, secure: boolean): void {
  void reply.header('Set-Cookie', serialize('', 0, secure));
}

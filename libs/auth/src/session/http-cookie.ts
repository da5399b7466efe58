// Written by hand rather than with @fastify/cookie: that plugin loads the ESM-only `cookie`
// package through a dynamic import, which Jest on Node 20 cannot run. Values here are
// URL-safe tokens, so nothing needs escaping.

const EPOCH = new Date(0).toUTCString();

/** How a session cookie is scoped and how its lifetime is written. */
export interface CookieShape {
  name: string;
  path: string;
  sameSite: 'Strict' | 'Lax';
  /** `max-age` writes `Max-Age=<seconds>`; `expires` writes `Expires=<date>`. */
  lifetime: 'max-age' | 'expires';
  /** Longest value accepted when reading (longer values are ignored). */
  maxValueLength: number;
}

export interface CookieLifetime {
  maxAgeSeconds: number;
  expiresAt: Date;
}

/** The `Set-Cookie` value that stores `value` for `lifetime`, or clears the cookie (`null`). */
export function serializeCookie(
  shape: CookieShape,
  value: string | null,
  lifetime: CookieLifetime | null,
  secure: boolean,
): string {
  const parts = [`${shape.name}=${value ?? ''}`];
  if (shape.lifetime === 'max-age') parts.push(`Max-Age=${lifetime?.maxAgeSeconds ?? 0}`);
  else parts.push(`Expires=${lifetime?.expiresAt.toUTCString() ?? EPOCH}`);
  parts.push(`Path=${shape.path}`, 'HttpOnly', `SameSite=${shape.sameSite}`);
  if (lifetime === null && shape.lifetime === 'max-age') parts.push(`Expires=${EPOCH}`);
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** The cookie's value from a `Cookie` header, when present and a well-formed token. */
export function readCookie(shape: CookieShape, header: string | undefined): string | undefined {
  const wellFormed = new RegExp(`^[A-Za-z0-9_-]{1,${shape.maxValueLength}}$`);
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === shape.name) {
      const value = part.slice(eq + 1).trim();
      return wellFormed.test(value) ? value : undefined;
    }
  }
  return undefined;
}

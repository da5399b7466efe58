import type { components as Cert } from '../api/certificates.gen';
import type { components as Findings } from '../api/findings.gen';
import type { Service, StoredSession } from '../config/store';

export const FINDINGS_REFRESH_COOKIE = 'findsvc_refresh';

/** The findsvc_refresh cookie's value in a findings login or refresh answer. */
export function findingsRefreshCookie(res: Response): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq).trim() === FINDINGS_REFRESH_COOKIE) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

export function expiresAt(expiresInSeconds: number): string {
  return new Date(Date.now() + expiresInSeconds * 1000).toISOString();
}

/** A new access token (and rotated refresh token) for a stored session; undefined if refused. */
export async function refreshSession(
  service: Service,
  session: StoredSession,
): Promise<StoredSession | undefined> {
  if (!session.refresh_token) return undefined;
  if (service === 'findings') {
    const res = await fetch(`${session.url}/api/v1/auth/token/refresh`, {
      method: 'POST',
      headers: { cookie: `${FINDINGS_REFRESH_COOKIE}=${session.refresh_token}` },
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data: Findings['schemas']['TokenResponseDto'] };
    return {
      ...session,
      access_token: body.data.access_token,
      refresh_token: findingsRefreshCookie(res) ?? session.refresh_token,
      expires_at: expiresAt(body.data.expires_in),
    };
  }
  const res = await fetch(`${session.url}/api/v1/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: session.refresh_token }),
  });
  if (!res.ok) return undefined;
  const body = (await res.json()) as Cert['schemas']['TokenDto'];
  return {
    ...session,
    access_token: body.access_token,
    refresh_token: body.refresh_token,
    expires_at: expiresAt(body.expires_in),
  };
}

/**
 * Single sign-on as docs/certificate-service/auth.md describes it: the SPA runs the
 * authorization request itself (its own `state`, `nonce` and PKCE S256 challenge), checks
 * `state` on the way back, and posts the code with the verifier to POST /api/v1/auth/callback.
 * What the callback page needs is kept in sessionStorage (this tab only) for the round trip.
 */
import type { Schemas } from '../api/client';

const PENDING_KEY = 'certificate-web.oidc';
/** The callback page: registered at the provider and in CERTSVC_OIDC_REDIRECT_URIS. */
export const CALLBACK_PATH = '/auth/callback';

export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  /** The page the person wanted before signing in. */
  from?: string;
}

function randomText(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 challenge of a PKCE verifier (RFC 7636). */
export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The provider's authorization URL for a new sign-in; remembers its state for the callback. */
export async function startSignIn(
  oidc: Schemas['OidcConfigDto'],
  origin: string,
  from?: string,
): Promise<string> {
  if (!oidc.authorization_endpoint || !oidc.client_id) throw new Error('single sign-on is off');
  const pending: PendingSignIn = {
    state: randomText(16),
    nonce: randomText(16),
    verifier: randomText(32),
    redirectUri: `${origin}${CALLBACK_PATH}`,
    ...(from ? { from } : {}),
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(oidc.authorization_endpoint);
  const params: Record<string, string> = {
    client_id: oidc.client_id,
    response_type: 'code',
    scope: oidc.scopes.join(' '),
    redirect_uri: pending.redirectUri,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await s256(pending.verifier),
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

/** The sign-in this tab started, taken once (a reload of the callback page cannot reuse it). */
export function takePendingSignIn(): PendingSignIn | undefined {
  const text = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PendingSignIn;
  } catch {
    return undefined;
  }
}

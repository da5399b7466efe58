import { TestIdentityProvider } from '@platform/testing';
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from './test-app';

export const SPA_REDIRECT_URI = 'http://cert-ui.test/auth/callback';
export const SPA_CLIENT_ID = 'certificate-ui';

/**
 * A provider with the SPA's client — public (PKCE only), or confidential when `clientSecret`
 * is given — and the accounts the tests use.
 */
export function startSpaProvider(
  accounts: Record<string, { email?: string; email_verified?: boolean; name?: string }>,
  clientSecret?: string,
): Promise<TestIdentityProvider> {
  return TestIdentityProvider.start({
    clients: [
      {
        client_id: SPA_CLIENT_ID,
        redirect_uris: [SPA_REDIRECT_URI],
        ...(clientSecret
          ? { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
          : { token_endpoint_auth_method: 'none' }),
      },
    ],
    accounts,
  });
}

export function oidcEnv(idp: TestIdentityProvider, clientSecret?: string): Record<string, string> {
  return {
    CERTSVC_OIDC_ISSUER: idp.issuer,
    CERTSVC_OIDC_CLIENT_ID: SPA_CLIENT_ID,
    CERTSVC_OIDC_REDIRECT_URIS: SPA_REDIRECT_URI,
    ...(clientSecret ? { CERTSVC_OIDC_CLIENT_SECRET: clientSecret } : {}),
  };
}

/** The body of `POST /api/v1/auth/callback` as the SPA sends it. */
export interface SpaCallback {
  code: string;
  code_verifier: string;
  redirect_uri: string;
  nonce: string;
}

/**
 * Plays the SPA: reads the provider from `GET /api/v1/auth/config`, runs the authorization
 * request with its own state, nonce and PKCE challenge, checks `state` on the way back and
 * returns what it would post to the callback route.
 */
export async function spaAuthorization(
  t: TestApp,
  idp: TestIdentityProvider,
  account: string,
): Promise<SpaCallback> {
  const { oidc } = (await t.http.get('/api/v1/auth/config').expect(200)).body as {
    oidc: { client_id: string; authorization_endpoint: string; scopes: string[] };
  };
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const nonce = randomBytes(16).toString('base64url');
  const url = new URL(oidc.authorization_endpoint);
  for (const [name, value] of Object.entries({
    client_id: oidc.client_id,
    response_type: 'code',
    scope: oidc.scopes.join(' '),
    redirect_uri: SPA_REDIRECT_URI,
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(name, value);
  }
  const back = await idp.authorize(url.href, account);
  if (back.searchParams.get('state') !== state) throw new Error('the SPA would refuse this state');
  return {
    code: back.searchParams.get('code') ?? '',
    code_verifier: verifier,
    redirect_uri: SPA_REDIRECT_URI,
    nonce,
  };
}

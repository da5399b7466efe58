import { TestIdentityProvider } from '@platform/testing';
import request from 'supertest';
import type { TestApp } from './test-app';

/** Where the provider sends the browser back; the test replays it against the app. */
export const SSO_REDIRECT_URI = 'http://findings.test/api/v1/auth/sso/corp/callback';
export const SSO_CLIENT = { id: 'findings-service', secret: 'findings-client-secret' };

/** A provider `corp` (legacy alias `keycloak`) with the accounts the tests sign in as. */
export function startCorpProvider(): Promise<TestIdentityProvider> {
  return TestIdentityProvider.start({
    clients: [
      {
        client_id: SSO_CLIENT.id,
        client_secret: SSO_CLIENT.secret,
        redirect_uris: [SSO_REDIRECT_URI, SSO_REDIRECT_URI.replace('/corp/', '/keycloak/')],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    accounts: {
      ann: { email: 'Ann@Corp.Test', email_verified: true, name: 'Ann Corp' },
      bob: { email: 'bob@corp.test', email_verified: true, name: 'Bob Corp' },
      carl: { email: 'carl@corp.test', email_verified: true },
      dora: { email: 'dora@corp.test', email_verified: true },
      eve: { email: 'eve@corp.test', email_verified: true },
      nomail: { name: 'No Mail' },
      unverified: { email: 'unverified@corp.test', email_verified: false },
      // a provider that does not say whether it verified the address
      silent: { email: 'silent@corp.test', name: 'Silent' },
    },
  });
}

export function ssoEnv(idp: TestIdentityProvider): Record<string, string> {
  return {
    SSO_PROVIDERS: 'corp',
    SSO_CORP_ISSUER: idp.issuer,
    SSO_CORP_CLIENT_ID: SSO_CLIENT.id,
    SSO_CORP_CLIENT_SECRET: SSO_CLIENT.secret,
    SSO_CORP_REDIRECT_URI: SSO_REDIRECT_URI,
    SSO_CORP_NAME: 'Corporate SSO',
    SSO_CORP_LEGACY_ALIAS: 'keycloak',
    SSO_AFTER_LOGIN_URL: '/ui/',
  };
}

export function cookieOf(res: request.Response, name: string): string | undefined {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  return raw?.find((c) => c.startsWith(`${name}=`));
}

export interface SsoFlow {
  /** `findsvc_sso_flow=<sealed>` as the browser sends it back. */
  flowCookie: string;
  /** Where the provider sent the browser back (code, state, iss). */
  callback: URL;
}

/**
 * Runs the browser part of a sign-in: the app's login redirect, then the provider with
 * `account` logged in. `tamper` may change the authorization request before the provider
 * sees it (a different nonce, for example).
 */
export async function ssoFlow(
  t: TestApp,
  idp: TestIdentityProvider,
  account: string,
  options: { segment?: string; tamper?: (authorization: URL) => void } = {},
): Promise<SsoFlow> {
  const login = await request(t.url)
    .get(`/api/v1/auth/sso/${options.segment ?? 'corp'}/login`)
    .expect(302);
  const authorization = new URL(login.headers.location as string);
  options.tamper?.(authorization);
  const flowCookie = (cookieOf(login, 'findsvc_sso_flow') ?? '').split(';')[0];
  return { flowCookie, callback: await idp.authorize(authorization.href, account) };
}

/** Replays the provider's redirect against the app (path and query of the callback). */
export function returnToApp(t: TestApp, flow: SsoFlow, segment = 'corp'): request.Test {
  const path = flow.callback.pathname.replace('/sso/corp/', `/sso/${segment}/`);
  return request(t.url).get(`${path}${flow.callback.search}`).set('Cookie', flow.flowCookie);
}

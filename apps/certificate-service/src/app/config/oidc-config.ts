import { readOidcClient, type OidcProviderSettings } from '@platform/auth';
import type { EnvReader } from '@platform/config';

/**
 * The identity provider of the certificate service, or undefined when single sign-on is off:
 * `CERTSVC_OIDC_ISSUER` and `CERTSVC_OIDC_CLIENT_ID` switch it on (both required then),
 * `CERTSVC_OIDC_CLIENT_SECRET` (absent: a public client, PKCE only) and `CERTSVC_OIDC_SCOPES`.
 * The SPA chooses the redirect URI; the provider checks it against the client's registration.
 */
export function readOidcConfig(r: EnvReader): OidcProviderSettings | undefined {
  const named = ['CERTSVC_OIDC_ISSUER', 'CERTSVC_OIDC_CLIENT_ID'].some(
    (n) => r.raw(n) !== undefined,
  );
  if (!named) return undefined;
  return {
    ...readOidcClient(r, 'oidc', {
      issuer: 'CERTSVC_OIDC_ISSUER',
      clientId: 'CERTSVC_OIDC_CLIENT_ID',
      clientSecret: 'CERTSVC_OIDC_CLIENT_SECRET',
      scopes: 'CERTSVC_OIDC_SCOPES',
      assumeEmailVerified: 'CERTSVC_OIDC_ASSUME_EMAIL_VERIFIED',
    }),
    displayName: 'Single sign-on',
  };
}

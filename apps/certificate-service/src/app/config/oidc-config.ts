import { readOidcClient, type OidcProviderSettings } from '@platform/auth';
import type { EnvReader } from '@platform/config';

/** The identity provider of the certificate service and the callback pages of its SPA. */
export interface CertsvcOidcSettings extends OidcProviderSettings {
  /**
   * `CERTSVC_OIDC_REDIRECT_URIS`: the only `redirect_uri` values the code exchange accepts
   * (the SPA's callback page, as registered at the provider); compared exactly.
   */
  redirectUris: string[];
}

/**
 * The identity provider of the certificate service, or undefined when single sign-on is off:
 * `CERTSVC_OIDC_ISSUER` and `CERTSVC_OIDC_CLIENT_ID` switch it on (both required then, with
 * `CERTSVC_OIDC_REDIRECT_URIS`), `CERTSVC_OIDC_CLIENT_SECRET` (absent: a public client, PKCE
 * only), `CERTSVC_OIDC_SCOPES` and `CERTSVC_OIDC_ASSUME_EMAIL_VERIFIED`. The SPA runs the
 * redirect; the service forwards only a redirect URI of its own list to the provider.
 */
export function readOidcConfig(r: EnvReader): CertsvcOidcSettings | undefined {
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
    redirectUris: readRedirectUris(r),
  };
}

const REDIRECT_URIS = 'CERTSVC_OIDC_REDIRECT_URIS';

function readRedirectUris(r: EnvReader): string[] {
  const uris = r.list(REDIRECT_URIS);
  if (uris.length === 0) {
    r.problem(`${REDIRECT_URIS} is required with CERTSVC_OIDC_ISSUER (the SPA's callback page)`);
  }
  for (const uri of uris) {
    let url: URL | undefined;
    try {
      url = new URL(uri);
    } catch {
      url = undefined;
    }
    if (!url || !['https:', 'http:'].includes(url.protocol) || url.hash !== '') {
      r.problem(`${REDIRECT_URIS}: "${uri}" is not an absolute http(s) URL without a fragment`);
    }
  }
  return uris;
}

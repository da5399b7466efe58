import { readOidcClient, type OidcProviderSettings } from '@platform/auth';
import type { EnvReader } from '@platform/config';

/** Single sign-on of the findings service: OpenID providers behind the UI's login buttons. */
export interface SsoConfig {
  providers: OidcProviderSettings[];
  /** Where the browser goes after a successful callback (the UI then calls token/refresh). */
  afterLoginUrl: string;
  /** Lifetime of a started sign-in (the flow cookie). */
  flowTtlSeconds: number;
}

const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** `corp` → `SSO_CORP_`, `my-idp` → `SSO_MY_IDP_`. */
function prefixOf(id: string): string {
  return `SSO_${id.toUpperCase().replace(/-/g, '_')}_`;
}

/**
 * `SSO_PROVIDERS=corp,partner` lists the providers; each reads `SSO_<ID>_ISSUER`,
 * `_CLIENT_ID`, `_CLIENT_SECRET`, `_REDIRECT_URI`, `_SCOPES`, `_NAME`, `_LEGACY_ALIAS` and
 * `_ASSUME_EMAIL_VERIFIED`.
 */
export function readSsoConfig(r: EnvReader): SsoConfig {
  const ids = r.list('SSO_PROVIDERS').map((id) => id.toLowerCase());
  const segments = new Set<string>();
  const claim = (segment: string, name: string): void => {
    if (segments.has(segment)) r.problem(`${name}: "${segment}" names two providers`);
    segments.add(segment);
  };
  const providers = ids.map((id): OidcProviderSettings => {
    if (!PROVIDER_ID.test(id)) r.problem(`SSO_PROVIDERS: "${id}" is not a valid provider id`);
    claim(id, 'SSO_PROVIDERS');
    const p = prefixOf(id);
    const legacyAlias = r.optionalString(`${p}LEGACY_ALIAS`)?.toLowerCase();
    if (legacyAlias !== undefined) {
      if (!PROVIDER_ID.test(legacyAlias))
        r.problem(`${p}LEGACY_ALIAS: "${legacyAlias}" is invalid`);
      claim(legacyAlias, `${p}LEGACY_ALIAS`);
    }
    return {
      ...readOidcClient(r, id, {
        issuer: `${p}ISSUER`,
        clientId: `${p}CLIENT_ID`,
        clientSecret: `${p}CLIENT_SECRET`,
        scopes: `${p}SCOPES`,
        redirectUri: `${p}REDIRECT_URI`,
        assumeEmailVerified: `${p}ASSUME_EMAIL_VERIFIED`,
      }),
      displayName: r.string(`${p}NAME`, id),
      legacyAlias,
    };
  });
  return {
    providers,
    afterLoginUrl: r.string('SSO_AFTER_LOGIN_URL', '/'),
    flowTtlSeconds: r.int('SSO_FLOW_TTL_SECONDS', 600, { min: 60, max: 3600 }),
  };
}

import type { EnvReader } from '@platform/config';

/** One OpenID provider as a service is configured to use it. */
export interface OidcProviderSettings {
  /** Short name used in routes and configuration (`corp`). */
  id: string;
  /** Label of the sign-in button. */
  displayName: string;
  issuer: string;
  clientId: string;
  /** Absent: a public client that proves itself with PKCE only. Never logged. */
  clientSecret?: string;
  /** Where the provider sends the browser back, when the service runs the redirect. */
  redirectUri?: string;
  scopes: string[];
  /** Another route segment that names this provider (the original identity provider's name). */
  legacyAlias?: string;
  /**
   * An ID token without `email_verified` counts as verified (`..._ASSUME_EMAIL_VERIFIED`):
   * only for a provider that verifies every address it hands out. Default false.
   */
  assumeEmailVerified?: boolean;
}

/** The environment variable names of one provider's client settings. */
export interface OidcClientVariables {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  redirectUri?: string;
  /** The boolean that lets a missing `email_verified` claim count as verified. */
  assumeEmailVerified: string;
}

export const DEFAULT_OIDC_SCOPES = ['openid', 'email', 'profile'];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether `issuer` may be reached over plain HTTP: only on loopback (a provider started for
 * development or tests). Anything else must be HTTPS.
 */
export function isLoopbackHttp(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

function absoluteUrl(value: string, httpsOnly: boolean): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:');
  } catch {
    return false;
  }
}

/**
 * Reads one provider's client settings with `r` (issuer and client id required, secret and
 * scopes optional, redirect URI required when named), recording every problem on `r`.
 */
export function readOidcClient(
  r: EnvReader,
  id: string,
  names: OidcClientVariables,
): Omit<OidcProviderSettings, 'displayName' | 'legacyAlias'> {
  const issuer = r.requiredString(names.issuer);
  if (
    issuer &&
    !(absoluteUrl(issuer, true) || (absoluteUrl(issuer, false) && isLoopbackHttp(issuer)))
  ) {
    r.problem(`${names.issuer} must be an https URL (http only on loopback), got "${issuer}"`);
  }
  const scopes = r.list(names.scopes, DEFAULT_OIDC_SCOPES).flatMap((s) => s.split(/\s+/));
  if (!scopes.includes('openid')) r.problem(`${names.scopes} must include openid`);
  if (!scopes.includes('email')) r.problem(`${names.scopes} must include email (the join key)`);
  let redirectUri: string | undefined;
  if (names.redirectUri !== undefined) {
    redirectUri = r.requiredString(names.redirectUri);
    if (redirectUri && !absoluteUrl(redirectUri, false)) {
      r.problem(`${names.redirectUri} must be an absolute http(s) URL, got "${redirectUri}"`);
    }
  }
  return {
    id,
    issuer,
    clientId: r.requiredString(names.clientId),
    clientSecret: r.optionalString(names.clientSecret),
    redirectUri,
    scopes: [...new Set(scopes)],
    assumeEmailVerified: r.bool(names.assumeEmailVerified, false),
  };
}

import { PkiError } from '../pki.errors';

export const EST_AUTH_MODES = ['basic', 'client_certificate'] as const;
export type EstAuthMode = (typeof EST_AUTH_MODES)[number];

/** What the EST issuer needs (RFC 7030); the TLS trust anchor and client key live in its `EstHttp`. */
export interface EstIssuerConfig {
  /** `https://host[:port]` (an optional path prefix is kept); `/.well-known/est` is appended. */
  readonly url: string;
  /** Optional CA label: `/.well-known/est/<label>/<operation>`. */
  readonly label?: string;
  /**
   * `basic`: HTTP basic credentials on enroll calls (over TLS that is always verified);
   * `client_certificate`: the service's certificate is presented in the TLS handshake.
   */
  readonly auth:
    | { readonly mode: 'basic'; readonly username: string; readonly password: string }
    | { readonly mode: 'client_certificate' };
}

export type EstOperation = 'cacerts' | 'simpleenroll' | 'simplereenroll';

/** RFC 7030 section 3.2.2: a label is one path segment. */
export const EST_LABEL_PATTERN = /^[A-Za-z0-9._~-]{1,64}$/;

/** The URL of one operation. */
export function estOperationUrl(config: EstIssuerConfig, operation: EstOperation): string {
  let base: URL;
  try {
    base = new URL(config.url);
  } catch {
    throw new PkiError('est_config_invalid', 'EST url is not an absolute URL');
  }
  if (base.protocol !== 'https:' || base.search !== '' || base.hash !== '' || base.username) {
    throw new PkiError('est_config_invalid', 'EST url must be https://host[:port][/path]');
  }
  if (config.label !== undefined && !EST_LABEL_PATTERN.test(config.label)) {
    throw new PkiError('est_config_invalid', 'EST label must be one path segment');
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const label = config.label === undefined ? '' : `/${config.label}`;
  return `${base.origin}${prefix}/.well-known/est${label}/${operation}`;
}

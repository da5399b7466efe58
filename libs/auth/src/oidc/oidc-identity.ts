import { OidcSignInError } from './oidc-sign-in.error';

/** Who signed in at the provider, as this platform keys users: by e-mail. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  /** Trimmed and lower-cased: the join key to local users. */
  email: string;
  displayName: string | null;
}

const MAX_EMAIL_LENGTH = 320;

/**
 * Maps validated ID-token claims to an identity. The e-mail is required (it joins the
 * provider's account to the local user) and must not be marked unverified.
 */
export function identityFromClaims(claims: Record<string, unknown>): OidcIdentity {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > MAX_EMAIL_LENGTH) {
    throw new OidcSignInError('email_missing', 'the ID token has no usable email claim');
  }
  if (claims.email_verified === false) {
    throw new OidcSignInError('email_unverified', 'the provider marks the email as unverified');
  }
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null;
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    email,
    displayName: name,
  };
}

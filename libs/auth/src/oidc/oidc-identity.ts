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

export interface IdentityRules {
  /**
   * An ID token without an `email_verified` claim counts as verified. Off by default: a
   * provider that lets users set any address and does not say whether it checked it would
   * let anyone sign in as the local user of that address. An operator opts in per provider
   * that verifies every address and omits the claim.
   */
  assumeEmailVerified?: boolean;
}

/**
 * Maps validated ID-token claims to an identity. The e-mail is required (it joins the
 * provider's account to the local user) and must be verified: `email_verified` true (or
 * `"true"`, as some providers write it); absent only when the provider's settings assume it.
 */
export function identityFromClaims(
  claims: Record<string, unknown>,
  rules: IdentityRules = {},
): OidcIdentity {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > MAX_EMAIL_LENGTH) {
    throw new OidcSignInError('email_missing', 'the ID token has no usable email claim');
  }
  const verified = claims.email_verified;
  if (verified === undefined) {
    if (!rules.assumeEmailVerified) {
      throw new OidcSignInError(
        'email_unverified',
        'the ID token has no email_verified claim (the provider is not set to assume it)',
      );
    }
  } else if (verified !== true && verified !== 'true') {
    throw new OidcSignInError(
      'email_unverified',
      `the provider marks the email as unverified (email_verified ${JSON.stringify(verified)})`,
    );
  }
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null;
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    email,
    displayName: name,
  };
}

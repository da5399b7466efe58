import { DomainError } from '@platform/errors';

/** Why a single sign-on attempt was refused; each service maps these to its own error codes. */
export type OidcRefusal =
  /** The flow state is missing, expired, tampered with, already used, or `state` differs. */
  | 'state_invalid'
  /** The provider answered the authorization or the code exchange with an error (a replayed code). */
  | 'provider_refused'
  /** The ID token failed validation: signature, key, algorithm, issuer, audience, expiry, nonce. */
  | 'id_token_invalid'
  /** The ID token carries no usable `email` claim (the join key to local users). */
  | 'email_missing'
  /** The provider says the e-mail is not verified (`email_verified: false`). */
  | 'email_unverified'
  /** Discovery, the token endpoint or the JWKS could not be reached. */
  | 'provider_unavailable';

export class OidcSignInError extends DomainError {
  constructor(
    readonly refusal: OidcRefusal,
    /** What exactly failed, for the log line only (never secrets, never the token). */
    readonly reason: string,
  ) {
    super(refusal, `single sign-on refused: ${refusal}`);
  }
}

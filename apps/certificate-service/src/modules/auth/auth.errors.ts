import type { OidcRefusal } from '@platform/auth';
import { CertsvcError } from '../../app/errors/certsvc-error';

export type AuthErrorCode =
  | 'unauthorized'
  | 'invalid_credentials'
  | 'refresh_token_invalid'
  | 'forbidden'
  | 'route_not_declared'
  | 'local_auth_disabled'
  | 'oidc_disabled'
  | 'oidc_nonce_required'
  | 'oidc_redirect_uri_not_allowed'
  | `oidc_${Exclude<OidcRefusal, 'state_invalid'>}`
  | 'current_password_incorrect'
  | 'not_local_user'
  | 'rate_limited';

const MESSAGES: Record<AuthErrorCode, string> = {
  unauthorized: 'authentication required',
  invalid_credentials: 'invalid email or password',
  refresh_token_invalid: 'refresh token is invalid, expired or already used',
  forbidden: 'your role does not allow this',
  route_not_declared: 'route has no access declaration',
  local_auth_disabled: 'local sign-in is disabled',
  oidc_disabled: 'single sign-on is not configured',
  oidc_nonce_required: 'nonce is required: send the nonce of the authorization request',
  oidc_redirect_uri_not_allowed:
    'redirect_uri is not a callback page this service allows (CERTSVC_OIDC_REDIRECT_URIS)',
  oidc_provider_refused: 'the identity provider refused the sign-in (code invalid or already used)',
  oidc_id_token_invalid: 'the identity provider returned an invalid ID token',
  oidc_email_missing: 'the identity provider did not share an email address',
  oidc_email_unverified: 'the identity provider has not verified the email address',
  oidc_provider_unavailable: 'the identity provider cannot be reached',
  current_password_incorrect: 'current password is incorrect',
  not_local_user: 'the user signs in through single sign-on and has no local password',
  rate_limited: 'too many attempts; try again later',
};

export class AuthError extends CertsvcError<AuthErrorCode> {
  constructor(code: AuthErrorCode, details?: Record<string, unknown>) {
    super(code, MESSAGES[code], details);
  }
}

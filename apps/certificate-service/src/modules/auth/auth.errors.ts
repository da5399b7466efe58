import type { OidcRefusal } from '@platform/auth';
import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

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

export class AuthError extends CertsvcError<AuthErrorCode> {
  constructor(code: AuthErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code, 'auth'), details);
  }
}

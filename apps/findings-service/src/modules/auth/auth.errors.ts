import type { OidcRefusal } from '@platform/auth';
import { FindingsError } from '../../app/errors/findings-error';

export type AuthErrorCode =
  | 'authentication_required'
  | 'invalid_token'
  | 'download_link_invalid'
  | 'invalid_api_key'
  | 'invalid_credentials'
  | 'refresh_token_invalid'
  | 'refresh_token_reused'
  | 'access_denied'
  | 'permission_denied'
  | 'access_undeclared'
  | 'local_auth_disabled'
  | 'sso_provider_unknown'
  | 'sso_redirect_uri_invalid'
  | `sso_${OidcRefusal}`;

export class AuthError extends FindingsError<AuthErrorCode> {
  constructor(code: AuthErrorCode) {
    super(code);
  }
}

import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type IssuerProfilesErrorCode =
  | 'issuer_purpose_invalid'
  | 'issuer_kind_invalid'
  | 'issuer_url_invalid'
  | 'issuer_settings_invalid'
  | 'issuer_secret_missing'
  | 'issuer_secret_key_missing'
  | 'issuer_secret_unreadable';

export class IssuerProfilesError extends CertsvcError<IssuerProfilesErrorCode> {
  constructor(code: IssuerProfilesErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code), details);
  }
}

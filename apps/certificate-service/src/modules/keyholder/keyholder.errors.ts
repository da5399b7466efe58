import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type KeyholderErrorCode =
  | 'keyholder_network_denied'
  | 'keyholder_token_required'
  | 'keyholder_token_invalid'
  | 'keyholder_principal_denied'
  | 'keyholder_token_not_found'
  | 'keyholder_token_revoked'
  | 'keyholder_certificate_not_found'
  | 'rate_limited';

export class KeyholderError extends CertsvcError<KeyholderErrorCode> {
  constructor(code: KeyholderErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code), details);
  }
}

import { CertsvcError } from '../../app/errors/certsvc-error';

export type KeyholderErrorCode =
  | 'keyholder_network_denied'
  | 'keyholder_token_required'
  | 'keyholder_token_invalid'
  | 'keyholder_principal_denied'
  | 'keyholder_token_not_found'
  | 'keyholder_token_revoked'
  | 'keyholder_certificate_not_found'
  | 'rate_limited';

const MESSAGES: Record<KeyholderErrorCode, string> = {
  keyholder_network_denied: 'the key-holder API is not open to this address',
  keyholder_token_required: 'a server token (X-Keyholder-Token) is required',
  keyholder_token_invalid: 'the server token is unknown or revoked',
  keyholder_principal_denied: 'this server token may not read this login',
  keyholder_token_not_found: 'key-holder token not found',
  keyholder_token_revoked: 'the key-holder token is revoked',
  keyholder_certificate_not_found: 'no SSH certificate with this serial and key id',
  rate_limited: 'too many requests; try again later',
};

export class KeyholderError extends CertsvcError<KeyholderErrorCode> {
  constructor(code: KeyholderErrorCode, details?: Record<string, unknown>) {
    super(code, MESSAGES[code], details);
  }
}

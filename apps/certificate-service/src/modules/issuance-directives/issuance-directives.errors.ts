import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type IssuanceDirectivesErrorCode =
  | 'device_not_found'
  | 'device_blocked'
  | 'issuance_directive_not_found'
  | 'issuance_directive_exists'
  | 'issuance_directive_closed'
  | 'issuance_directive_cancelled';

export class IssuanceDirectivesError extends CertsvcError<IssuanceDirectivesErrorCode> {
  constructor(code: IssuanceDirectivesErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code), details);
  }
}

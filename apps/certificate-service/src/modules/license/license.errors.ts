import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type LicenseErrorCode =
  | 'license_invalid'
  | 'license_limit'
  | 'license_purpose_limit'
  | 'license_tamper'
  | 'license_slot_not_found'
  | 'rate_limited';

export class LicenseError extends CertsvcError<LicenseErrorCode> {
  constructor(
    code: LicenseErrorCode,
    message = certsvcErrorMessage(code),
    details?: Record<string, unknown>,
  ) {
    super(code, message, details);
  }
}

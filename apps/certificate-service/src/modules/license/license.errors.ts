import { CertsvcError } from '../../app/errors/certsvc-error';

export type LicenseErrorCode =
  | 'license_invalid'
  | 'license_limit'
  | 'license_purpose_limit'
  | 'license_tamper'
  | 'license_slot_not_found'
  | 'rate_limited';

const MESSAGES: Record<LicenseErrorCode, string> = {
  license_invalid: 'the license file is not valid for this deployment',
  license_limit: 'approval would exceed the licensed number of devices',
  license_purpose_limit: 'no seats of the purpose remain under the license',
  license_tamper: 'the license usage ledger failed its integrity check',
  license_slot_not_found: 'no device slot is held by this identity key',
  rate_limited: 'too many requests; try again later',
};

export class LicenseError extends CertsvcError<LicenseErrorCode> {
  constructor(code: LicenseErrorCode, message = MESSAGES[code], details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

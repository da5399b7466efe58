import { CertsvcError } from '../../app/errors/certsvc-error';

export type LicenseErrorCode =
  'license_invalid' | 'license_limit' | 'license_tamper' | 'license_slot_not_found';

const MESSAGES: Record<LicenseErrorCode, string> = {
  license_invalid: 'the license file is not valid for this deployment',
  license_limit: 'approval would exceed the licensed number of devices',
  license_tamper: 'the license usage ledger failed its integrity check',
  license_slot_not_found: 'no device slot is held by this identity key',
};

export class LicenseError extends CertsvcError<LicenseErrorCode> {
  constructor(code: LicenseErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}

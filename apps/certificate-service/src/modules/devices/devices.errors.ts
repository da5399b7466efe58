import { CertsvcError } from '../../app/errors/certsvc-error';

export type DevicesErrorCode =
  | 'device_not_found'
  | 'invalid_purpose'
  | 'purpose_request_not_found'
  | 'enrollment_token_invalid'
  | 'purpose_not_assigned';

const MESSAGES: Record<DevicesErrorCode, string> = {
  device_not_found: 'no device with this serial',
  invalid_purpose: 'unknown purpose; one of wifi, user_mtls, ad_logon, ssh, k8s, vpn',
  purpose_request_not_found: 'no pending request for this purpose on this device',
  enrollment_token_invalid: 'serial or enrollment token is not valid',
  purpose_not_assigned: 'this purpose is not assigned to the device or is denied for it',
};

export class DevicesError extends CertsvcError<DevicesErrorCode> {
  constructor(code: DevicesErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}

import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type DevicesErrorCode =
  | 'device_not_found'
  | 'invalid_purpose'
  | 'purpose_request_not_found'
  | 'enrollment_token_invalid'
  | 'purpose_not_assigned';

export class DevicesError extends CertsvcError<DevicesErrorCode> {
  constructor(code: DevicesErrorCode, message = certsvcErrorMessage(code)) {
    super(code, message);
  }
}

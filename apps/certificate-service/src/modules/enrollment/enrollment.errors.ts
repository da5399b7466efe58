import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type EnrollmentErrorCode =
  | 'nonce_invalid'
  | 'enrollment_token_invalid'
  | 'enroll_source_auth_failed'
  | 'purpose_not_assigned'
  | 'crl_unavailable'
  | 'rate_limited';

export class EnrollmentError extends CertsvcError<EnrollmentErrorCode> {
  constructor(code: EnrollmentErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code), details);
  }
}

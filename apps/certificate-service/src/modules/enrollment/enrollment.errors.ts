import { CertsvcError } from '../../app/errors/certsvc-error';

export type EnrollmentErrorCode =
  | 'nonce_invalid'
  | 'enrollment_token_invalid'
  | 'enroll_source_auth_failed'
  | 'purpose_not_assigned'
  | 'crl_unavailable'
  | 'rate_limited';

const MESSAGES: Record<EnrollmentErrorCode, string> = {
  nonce_invalid: 'nonce is unknown, expired or already used; ask for a new one',
  enrollment_token_invalid: 'serial or enrollment token is not valid',
  enroll_source_auth_failed: 'the request source could not be verified',
  purpose_not_assigned: 'this purpose is not assigned to the device or is denied for it',
  crl_unavailable: 'no revocation list is available yet',
  rate_limited: 'too many requests; try again later',
};

export class EnrollmentError extends CertsvcError<EnrollmentErrorCode> {
  constructor(code: EnrollmentErrorCode, details?: Record<string, unknown>) {
    super(code, MESSAGES[code], details);
  }
}

import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

/** Row error codes of approve/reject (and their HTTP status when raised alone). */
export type ApprovalErrorCode =
  | 'request_not_found'
  | 'request_not_pending'
  | 'purpose_not_allowed'
  | 'corp_ownership_denied'
  | 'device_blocked'
  | 'attestation_required'
  | 'purpose_unsupported';

export class ApprovalError extends CertsvcError<ApprovalErrorCode> {
  constructor(code: ApprovalErrorCode, message = certsvcErrorMessage(code, 'approval')) {
    super(code, message);
  }
}

import { CertsvcError } from '../../app/errors/certsvc-error';

/** Row error codes of approve/reject (and their HTTP status when raised alone). */
export type ApprovalErrorCode =
  | 'request_not_found'
  | 'request_not_pending'
  | 'purpose_not_allowed'
  | 'corp_ownership_denied'
  | 'device_blocked'
  | 'attestation_required'
  | 'purpose_unsupported';

const MESSAGES: Record<ApprovalErrorCode, string> = {
  request_not_found: 'no certificate request with this id',
  request_not_pending: 'the request is no longer awaiting a decision',
  purpose_not_allowed: 'the service account may not approve this purpose',
  corp_ownership_denied: 'the device is not confirmed as corporate-owned',
  device_blocked: 'the device is blocked or the request was registered during a block',
  attestation_required: 'hardware attestation is required',
  purpose_unsupported: 'this purpose is not issued through request approval',
};

export class ApprovalError extends CertsvcError<ApprovalErrorCode> {
  constructor(code: ApprovalErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}

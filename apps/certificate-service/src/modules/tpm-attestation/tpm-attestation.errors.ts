import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type TpmAttestationErrorCode = 'tpm_evidence_invalid';

/** Malformed TPM structures in a nonce or enroll body (400, the structure named). */
export class TpmAttestationError extends CertsvcError<TpmAttestationErrorCode> {
  constructor(code: TpmAttestationErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code), details);
  }
}

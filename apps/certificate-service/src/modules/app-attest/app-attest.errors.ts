import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type AppAttestErrorCode = 'app_attest_invalid' | 'app_attest_required' | 'rate_limited';

/** App attestation refusals; the reason goes to the server log, never to the client. */
export class AppAttestError extends CertsvcError<AppAttestErrorCode> {
  constructor(code: AppAttestErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code), details);
  }
}
